//! Every weight of the evaluation: the tuned ones (re-exported from the generated `weights.rs`)
//! and the few hand-set constants that are not linear in the evaluation and so not tuned.
//!
//! All weights are [`S`](crate::S)`(mg, eg)` scores in centipawns and are *bonuses for the side that owns
//! the feature*: penalties are negative numbers.
//!
//! # Tuned weights
//!
//! The evaluation is linear in each tuned weight: every weight is used as `count * weight`,
//! where the count (how many times a feature occurs for a side) depends on the position only.
//! `cargo xtask tune` fits all of them to labelled positions and writes `weights.rs`, which
//! is generated and never edited by hand. [`Table`] lists them (name, size, term, meaning);
//! the tuner and the generated file take their layout from it, so adding a weight means
//! adding one line to the `tables!` list below, using it in the evaluation through the
//! evaluation's sink, and re-running the tuner.
//!
//! # Provenance
//!
//! Material and the piece-square tables started from the PeSTO values by Ronald Friederich
//! (Chess Programming Wiki, "PeSTO's Evaluation Function"); the other terms started from
//! hand-written guesses or zero. `weights.rs` says which command and data produced the
//! current values; `docs/tuning.md` records every tuning run.

use crate::score::Score;
use crate::trace::Term;

pub use crate::weights::*;

/// Contribution of each piece type to the game [phase](crate::phase): knight and bishop 1,
/// rook 2, queen 4 (24 with all pieces on the board). Pawns and kings count 0. Not tuned:
/// the phase multiplies the weights, so the evaluation is not linear in it.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// King safety: percentage of the summed [`KING_ZONE_ATTACK`] that counts, by the number of
/// enemy pieces attacking the king zone (7 or more use the last entry). A lone attacker
/// does not count; each further attacker raises the share. Not tuned (it multiplies tuned
/// weights); the tuner sees `hits * percentage / 100` as the count of each zone-attack weight.
pub const KING_ATTACKERS_SCALE: [i32; 8] = [0, 0, 50, 75, 88, 94, 97, 99];

/// The piece-square tables indexed by piece type (see [`PSQT_PAWN`] for the layout).
pub const PSQT: [[Score; 64]; 6] = [PSQT_PAWN, PSQT_KNIGHT, PSQT_BISHOP, PSQT_ROOK, PSQT_QUEEN, PSQT_KING];

/// The [`Table`] of each piece type's piece-square table, indexed like [`PSQT`].
pub(crate) const PSQT_TABLES: [Table; 6] =
    [Table::PsqtPawn, Table::PsqtKnight, Table::PsqtBishop, Table::PsqtRook, Table::PsqtQueen, Table::PsqtKing];

/// How a [`Table`] is written in `weights.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One [`Score`]: `pub const NAME: Score = S(mg, eg);`
    Scalar,
    /// A row of scores: `pub const NAME: [Score; N] = [...];`
    Array,
    /// 64 scores drawn as a board, rank 8 first, a-file first.
    Board,
}

/// Something the weight tables are made of: a [`Score`] or an array of them.
trait Scores {
    fn at(&self, i: usize) -> Score;
    fn extend_into(&self, out: &mut alloc::vec::Vec<Score>);
}

impl Scores for Score {
    #[inline(always)]
    fn at(&self, _: usize) -> Score {
        *self
    }
    fn extend_into(&self, out: &mut alloc::vec::Vec<Score>) {
        out.push(*self);
    }
}

impl<const N: usize> Scores for [Score; N] {
    #[inline(always)]
    fn at(&self, i: usize) -> Score {
        self[i]
    }
    fn extend_into(&self, out: &mut alloc::vec::Vec<Score>) {
        out.extend_from_slice(self);
    }
}

/// Declares the tuned tables: the [`Table`] enum, its metadata, and the flat layout.
macro_rules! tables {
    ($( $(#[doc = $doc:literal])+ $variant:ident = $name:ident : $shape:ident [$len:literal] => $term:ident, )+) => {
        /// One table of tuned weights (a single [`Score`] counts as a table of one).
        ///
        /// The tuner sees all weights as one flat vector, the tables one after the other in
        /// the order of [`Table::ALL`]; [`Table::offset`] is where a table starts in it.
        ///
        /// ```
        /// use cutoff_eval::params::{Table, NUM_WEIGHTS};
        /// assert_eq!(Table::Material.offset(), 0);
        /// assert_eq!(Table::Material.len(), 6);
        /// assert_eq!(Table::Material.name(), "MATERIAL");
        /// let last = Table::ALL[Table::ALL.len() - 1];
        /// assert_eq!(last.offset() + last.len(), NUM_WEIGHTS);
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Table {
            $( $(#[doc = $doc])+ $variant, )+
        }

        impl Table {
            /// Every table, in the order of the flat weight vector.
            pub const ALL: &'static [Table] = &[$(Table::$variant),+];

            /// The name of the constant in `weights.rs`.
            pub const fn name(self) -> &'static str {
                match self { $(Table::$variant => stringify!($name)),+ }
            }

            /// The number of weights in the table.
            #[allow(clippy::len_without_is_empty)]
            pub const fn len(self) -> usize {
                match self { $(Table::$variant => $len),+ }
            }

            /// How the table is written in `weights.rs`.
            pub const fn shape(self) -> Shape {
                match self { $(Table::$variant => Shape::$shape),+ }
            }

            /// The [`Term`] of the evaluation the table belongs to.
            pub const fn term(self) -> Term {
                match self { $(Table::$variant => Term::$term),+ }
            }

            /// What the table's weights reward: the doc comment written into `weights.rs`.
            pub const fn doc(self) -> &'static str {
                match self { $(Table::$variant => concat!($($doc, "\n"),+)),+ }
            }

            /// Where the table starts in the flat weight vector.
            #[inline(always)]
            pub const fn offset(self) -> usize {
                OFFSETS[self as usize]
            }

            /// Weight `i` of the table, as compiled in.
            #[inline(always)]
            pub fn get(self, i: usize) -> Score {
                match self { $(Table::$variant => Scores::at(&$name, i)),+ }
            }
        }

        /// [`Table::offset`] of each table, computed at compile time.
        const OFFSETS: [usize; Table::ALL.len()] = {
            let mut offsets = [0; Table::ALL.len()];
            let mut i = 1;
            while i < Table::ALL.len() {
                offsets[i] = offsets[i - 1] + Table::ALL[i - 1].len();
                i += 1;
            }
            offsets
        };

        /// The number of tuned weights (each an `(mg, eg)` pair).
        pub const NUM_WEIGHTS: usize = 0 $(+ $len)+;

        /// Every tuned weight as compiled in, flattened in the order of [`Table::ALL`].
        ///
        /// ```
        /// use cutoff_eval::params::{Table, NUM_WEIGHTS, MATERIAL, compiled_weights};
        /// let w = compiled_weights();
        /// assert_eq!(w.len(), NUM_WEIGHTS);
        /// assert_eq!(w[Table::Material.offset() + 1], MATERIAL[1]);
        /// ```
        pub fn compiled_weights() -> alloc::vec::Vec<Score> {
            let mut out = alloc::vec::Vec::with_capacity(NUM_WEIGHTS);
            $( Scores::extend_into(&$name, &mut out); )+
            out
        }
    };
}

tables! {
    /// Material value of each piece type, indexed by [`PieceType`](cutoff_board::PieceType)
    /// (pawn, knight, bishop, rook, queen, king). The king's entry is never used.
    Material = MATERIAL: Array[6] => Material,
    /// Pawn piece-square table. Each table is written the way a board is drawn from White's
    /// side: the first row is rank 8, each row goes from the a-file to the h-file; a black
    /// piece reads the square mirrored vertically. Ranks 1 and 8 of this table are never used.
    PsqtPawn = PSQT_PAWN: Board[64] => Psqt,
    /// Knight piece-square table (layout as [`PSQT_PAWN`]).
    PsqtKnight = PSQT_KNIGHT: Board[64] => Psqt,
    /// Bishop piece-square table (layout as [`PSQT_PAWN`]).
    PsqtBishop = PSQT_BISHOP: Board[64] => Psqt,
    /// Rook piece-square table (layout as [`PSQT_PAWN`]).
    PsqtRook = PSQT_ROOK: Board[64] => Psqt,
    /// Queen piece-square table (layout as [`PSQT_PAWN`]).
    PsqtQueen = PSQT_QUEEN: Board[64] => Psqt,
    /// King piece-square table (layout as [`PSQT_PAWN`]).
    PsqtKing = PSQT_KING: Board[64] => Psqt,
    /// Knight mobility, by the number of squares of the mobility area the knight attacks
    /// (0..=8). A side's mobility area is every square not occupied by its own pieces and not
    /// attacked by an enemy pawn.
    MobilityKnight = MOBILITY_KNIGHT: Array[9] => Mobility,
    /// Bishop mobility by attacked squares of the mobility area (0..=13).
    MobilityBishop = MOBILITY_BISHOP: Array[14] => Mobility,
    /// Rook mobility by attacked squares of the mobility area (0..=14).
    MobilityRook = MOBILITY_ROOK: Array[15] => Mobility,
    /// Queen mobility by attacked squares of the mobility area (0..=27).
    MobilityQueen = MOBILITY_QUEEN: Array[28] => Mobility,
    /// A pawn with another pawn of its side in front of it on the same file (counted once per
    /// rear pawn).
    PawnDoubled = PAWN_DOUBLED: Scalar[1] => Pawns,
    /// A pawn with no pawn of its side on either adjacent file.
    PawnIsolated = PAWN_ISOLATED: Scalar[1] => Pawns,
    /// A pawn that is not isolated, has no pawn of its side beside or behind it on the
    /// adjacent files, and whose stop square is attacked by an enemy pawn.
    PawnBackward = PAWN_BACKWARD: Scalar[1] => Pawns,
    /// A pawn defended by a pawn of its side or standing next to one, by its rank as seen
    /// from its own side (index 0 = rank 1 ... 7 = rank 8).
    PawnConnected = PAWN_CONNECTED: Array[8] => Pawns,
    /// A passed pawn (no enemy pawn in front of it on its own or an adjacent file, and no pawn
    /// of its side in front of it on its file), by relative rank.
    PawnPassed = PAWN_PASSED: Array[8] => Pawns,
    /// A passed pawn whose stop square (the square in front of it) is occupied, by relative
    /// rank.
    PassedBlocked = PASSED_BLOCKED: Array[8] => Passed,
    /// A passed pawn whose path to promotion holds no piece and no square attacked by the
    /// enemy, by relative rank.
    PassedFreePath = PASSED_FREE_PATH: Array[8] => Passed,
    /// A passed pawn, by the distance (0..=7, king moves) from its side's king to its stop
    /// square.
    PassedOwnKing = PASSED_OWN_KING: Array[8] => Passed,
    /// A passed pawn, by the distance (0..=7, king moves) from the enemy king to its stop
    /// square.
    PassedEnemyKing = PASSED_ENEMY_KING: Array[8] => Passed,
    /// King safety, added to the defending side once per (enemy piece, attacked king-zone
    /// square) pair, by attacker type: knight, bishop, rook, queen. The king zone is the
    /// king's square, the squares around it and the three squares two ranks in front of it.
    /// The sum is scaled by [the attacker-count scale](crate::params::KING_ATTACKERS_SCALE).
    KingZoneAttack = KING_ZONE_ATTACK: Array[4] => KingSafety,
    /// King safety: a pawn of the king's side on one of the three files around the king, one
    /// rank in front of the king.
    KingShieldNear = KING_SHIELD_NEAR: Scalar[1] => KingSafety,
    /// King safety: as [`KING_SHIELD_NEAR`], two ranks in front of the king.
    KingShieldFar = KING_SHIELD_FAR: Scalar[1] => KingSafety,
    /// King safety: one of the files around the king has no pawn of the king's side.
    KingSemiOpenFile = KING_SEMI_OPEN_FILE: Scalar[1] => KingSafety,
    /// King safety: one of the files around the king has no pawn at all (on top of
    /// [`KING_SEMI_OPEN_FILE`]).
    KingOpenFile = KING_OPEN_FILE: Scalar[1] => KingSafety,
    /// A threat: an enemy piece attacked by one of our pawns, by the attacked piece's type
    /// (pawn, knight, bishop, rook, queen, king).
    ThreatByPawn = THREAT_BY_PAWN: Array[6] => Threats,
    /// A threat: an enemy piece attacked by one of our knights or bishops, by its type.
    ThreatByMinor = THREAT_BY_MINOR: Array[6] => Threats,
    /// A threat: an enemy piece attacked by one of our rooks, by its type.
    ThreatByRook = THREAT_BY_ROOK: Array[6] => Threats,
    /// A threat: an enemy piece attacked by our queen, by its type.
    ThreatByQueen = THREAT_BY_QUEEN: Array[6] => Threats,
    /// A threat: an enemy piece other than a pawn attacked by our king and not defended.
    ThreatByKing = THREAT_BY_KING: Scalar[1] => Threats,
    /// An enemy piece other than a pawn that we attack and the enemy does not defend.
    Hanging = HANGING: Scalar[1] => Threats,
    /// A threat: an enemy piece other than a pawn that one of our pawns would attack after a
    /// safe push (one or two squares, to a square no enemy pawn attacks and the enemy does not
    /// attack unless we defend it).
    ThreatPawnPush = THREAT_PAWN_PUSH: Scalar[1] => Threats,
    /// King safety: the enemy pawn nearest to the king's side on each of the three files
    /// around the king, by that pawn's rank as seen from the king's side (index 0 = rank 1 ...
    /// 7 = rank 8; files without enemy pawns count nothing).
    KingPawnStorm = KING_PAWN_STORM: Array[8] => KingSafety,
    /// King safety: a square from which one of our pieces can give check, that such a piece
    /// of ours attacks, that is empty or holds an enemy piece, and that the enemy does not
    /// attack; by the checking piece: knight, bishop, rook, queen. Counted for the attacker.
    SafeCheck = SAFE_CHECK: Array[4] => KingSafety,
    /// King safety: a square of the enemy king zone that we attack and the enemy defends
    /// with nothing but its king or queen. Counted for the attacker.
    KingZoneWeak = KING_ZONE_WEAK: Scalar[1] => KingSafety,
    /// Bishops on both square colours.
    BishopPair = BISHOP_PAIR: Scalar[1] => Pieces,
    /// A knight on an outpost: ranks 4 to 6 (its side's view), defended by a pawn of its side,
    /// and no enemy pawn can ever attack the square.
    KnightOutpost = KNIGHT_OUTPOST: Scalar[1] => Pieces,
    /// A bishop on an outpost (as [`KNIGHT_OUTPOST`]).
    BishopOutpost = BISHOP_OUTPOST: Scalar[1] => Pieces,
    /// A rook on a file without pawns.
    RookOpenFile = ROOK_OPEN_FILE: Scalar[1] => Pieces,
    /// A rook on a file with enemy pawns but none of its own.
    RookSemiOpenFile = ROOK_SEMI_OPEN_FILE: Scalar[1] => Pieces,
    /// A rook on the seventh rank (its side's view).
    RookOnSeventh = ROOK_ON_SEVENTH: Scalar[1] => Pieces,
    /// A knight or bishop with a pawn (of either side) on the square in front of it.
    MinorBehindPawn = MINOR_BEHIND_PAWN: Scalar[1] => Pieces,
    /// A bishop on one of the two long diagonals that sees two centre squares past the pawns.
    BishopLongDiagonal = BISHOP_LONG_DIAGONAL: Scalar[1] => Pieces,
    /// A knight, once per pawn of its side: how a knight's value moves with the pawns.
    KnightPawns = KNIGHT_PAWNS: Scalar[1] => Pieces,
    /// A rook, once per pawn of its side: how a rook's value moves with the pawns.
    RookPawns = ROOK_PAWNS: Scalar[1] => Pieces,
    /// The side to move's bonus.
    Tempo = TEMPO: Scalar[1] => Tempo,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_contiguous_and_matches_the_constants() {
        let mut offset = 0;
        for &t in Table::ALL {
            assert_eq!(t.offset(), offset, "{}", t.name());
            offset += t.len();
            assert_eq!(t.shape() == Shape::Scalar, t.len() == 1, "{}", t.name());
            if t.shape() == Shape::Board {
                assert_eq!(t.len(), 64);
            }
        }
        assert_eq!(offset, NUM_WEIGHTS);
        let w = compiled_weights();
        for &t in Table::ALL {
            for i in 0..t.len() {
                assert_eq!(w[t.offset() + i], t.get(i), "{}[{i}]", t.name());
            }
        }
        assert_eq!(Table::PsqtKnight.get(3), PSQT[1][3]);
    }
}
