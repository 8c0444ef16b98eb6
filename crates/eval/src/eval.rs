//! The evaluation proper: every feature of both sides, found in one pass over the pieces and
//! reported to a [`Sink`].
//!
//! The code below never adds weights itself: it tells a sink "this feature occurs `n` times
//! for this side". The [`Sum`] sink adds the weights (that is the evaluation), [`ByTerm`]
//! keeps them apart by term (the UCI `eval` table), and [`Counts`] records the counts
//! themselves (what a tuner fits the weights to). Since the three share this code, the
//! tuner's picture of the evaluation cannot drift from the evaluation.

use alloc::vec;
use alloc::vec::Vec;

use cutoff_board::{Bitboard, Board, Color, File, PieceType, Rank, Square, attacks};

use crate::masks::{ADJACENT_FILES, FORWARD_FILE, KING_ZONE, PASSED_SPAN, pawn_attacks};
use crate::params::*;
use crate::score::{S, Score};
use crate::trace::Term;

/// Every term for both colours: `terms[term][color]`, each from that colour's point of view.
pub(crate) type Terms = [[Score; 2]; Term::COUNT];

/// Receives the features of a position.
pub(crate) trait Sink {
    /// Feature `index` of `table` occurs `count` times for `color`.
    fn add(&mut self, color: Color, table: Table, index: usize, count: i32);

    /// The king zone of `defender` is hit `hits[k]` times by enemy pieces of type `k`
    /// (knight, bishop, rook, queen), by `attackers` pieces in all.
    fn king_danger(&mut self, defender: Color, hits: [i32; 4], attackers: usize);
}

/// The share of the zone attacks that counts with `attackers` attackers, in percent.
#[inline(always)]
fn attackers_scale(attackers: usize) -> i32 {
    KING_ATTACKERS_SCALE[attackers.min(KING_ATTACKERS_SCALE.len() - 1)]
}

/// The king danger score (scaled zone attacks) of one side.
#[inline(always)]
fn king_danger_score(hits: [i32; 4], attackers: usize) -> Score {
    let mut weight = Score::ZERO;
    for (k, &h) in hits.iter().enumerate() {
        weight += KING_ZONE_ATTACK[k] * h;
    }
    let pct = attackers_scale(attackers);
    S(weight.mg() * pct / 100, weight.eg() * pct / 100)
}

/// The sink that adds the weights: `[white, black]`, each from its own point of view.
#[derive(Default)]
pub(crate) struct Sum(pub(crate) [Score; 2]);

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, color: Color, table: Table, index: usize, count: i32) {
        self.0[color as usize] += table.get(index) * count;
    }

    #[inline(always)]
    fn king_danger(&mut self, defender: Color, hits: [i32; 4], attackers: usize) {
        self.0[defender as usize] += king_danger_score(hits, attackers);
    }
}

/// The sink that adds the weights term by term.
pub(crate) struct ByTerm(pub(crate) Terms);

impl Sink for ByTerm {
    fn add(&mut self, color: Color, table: Table, index: usize, count: i32) {
        self.0[table.term() as usize][color as usize] += table.get(index) * count;
    }

    fn king_danger(&mut self, defender: Color, hits: [i32; 4], attackers: usize) {
        self.0[Term::KingSafety as usize][defender as usize] += king_danger_score(hits, attackers);
    }
}

/// The sink that records how often each weight is used: `counts[color][weight]`, the
/// weights numbered as in [`Table::offset`].
pub(crate) struct Counts(pub(crate) [Vec<f32>; 2]);

impl Counts {
    pub(crate) fn new() -> Counts {
        Counts([vec![0.0; NUM_WEIGHTS], vec![0.0; NUM_WEIGHTS]])
    }
}

impl Sink for Counts {
    fn add(&mut self, color: Color, table: Table, index: usize, count: i32) {
        debug_assert!(index < table.len(), "{}[{index}]", table.name());
        self.0[color as usize][table.offset() + index] += count as f32;
    }

    fn king_danger(&mut self, defender: Color, hits: [i32; 4], attackers: usize) {
        // The scaled sum is linear in the zone-attack weights, with these counts. (The
        // evaluation rounds the scaled sum; the counts do not, a difference below 1 cp.)
        let pct = attackers_scale(attackers) as f32 / 100.0;
        for (k, &h) in hits.iter().enumerate() {
            self.0[defender as usize][Table::KingZoneAttack.offset() + k] += h as f32 * pct;
        }
    }
}

/// `PSQT` index of a piece of `color` on `sq` (the tables are drawn rank 8 first).
#[inline(always)]
fn psqt_index(color: Color, sq: Square) -> usize {
    const FLIP: [usize; 2] = [56, 0];
    sq as usize ^ FLIP[color as usize]
}

/// The number of king moves between two squares.
#[inline(always)]
fn distance(a: Square, b: Square) -> usize {
    let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
    let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
    df.max(dr) as usize
}

/// The game phase: 24 with all pieces on the board, 0 with kings and pawns only.
#[inline(always)]
pub(crate) fn phase(board: &Board) -> i32 {
    let minors = (board.pieces(PieceType::Knight) | board.pieces(PieceType::Bishop)).len() as i32;
    let rooks = board.pieces(PieceType::Rook).len() as i32;
    let queens = board.pieces(PieceType::Queen).len() as i32;
    let phase = minors * PHASE_WEIGHT[PieceType::Knight as usize]
        + rooks * PHASE_WEIGHT[PieceType::Rook as usize]
        + queens * PHASE_WEIGHT[PieceType::Queen as usize];
    phase.min(crate::MAX_PHASE)
}

/// What one side attacks, filled in by the piece loop.
#[derive(Clone, Copy, Default)]
struct Attacks {
    /// Squares attacked by the side's knights.
    knights: Bitboard,
    /// Squares attacked by its bishops.
    bishops: Bitboard,
    /// Squares attacked by the side's knights and bishops.
    minors: Bitboard,
    /// Squares attacked by its rooks.
    rooks: Bitboard,
    /// Squares attacked by its queens.
    queens: Bitboard,
    /// Squares attacked by anything of the side, pawns and king included.
    all: Bitboard,
    /// Zone hits on the enemy king by piece type (knight, bishop, rook, queen).
    zone_hits: [i32; 4],
    /// Pieces that hit the enemy king zone.
    zone_attackers: usize,
}

/// The pieces of one type (knight, bishop, rook or queen) of `color`.
#[inline(always)]
fn pieces<const KIND: usize, S: Sink>(
    board: &Board,
    color: Color,
    area: Bitboard,
    enemy_zone: Bitboard,
    outposts: Bitboard,
    att: &mut Attacks,
    sink: &mut S,
) {
    let kind = PieceType::ALL[KIND];
    let occupied = board.occupied();
    let mobility = match kind {
        PieceType::Knight => Table::MobilityKnight,
        PieceType::Bishop => Table::MobilityBishop,
        PieceType::Rook => Table::MobilityRook,
        _ => Table::MobilityQueen,
    };
    for sq in board.colored_pieces(color, kind) {
        sink.add(color, PSQT_TABLES[KIND], psqt_index(color, sq), 1);
        let attacks = match kind {
            PieceType::Knight => attacks::knight(sq),
            PieceType::Bishop => attacks::bishop(sq, occupied),
            PieceType::Rook => attacks::rook(sq, occupied),
            _ => attacks::queen(sq, occupied),
        };
        match kind {
            PieceType::Knight => att.knights |= attacks,
            PieceType::Bishop => att.bishops |= attacks,
            PieceType::Rook => att.rooks |= attacks,
            _ => att.queens |= attacks,
        }
        sink.add(color, mobility, (attacks & area).len() as usize, 1);
        let hits = (attacks & enemy_zone).len() as i32;
        if hits > 0 {
            att.zone_attackers += 1;
            att.zone_hits[KIND - 1] += hits;
        }
        match kind {
            PieceType::Knight | PieceType::Bishop => {
                if outposts.has(sq) {
                    let table = if kind == PieceType::Knight { Table::KnightOutpost } else { Table::BishopOutpost };
                    sink.add(color, table, 0, 1);
                }
                if board.pieces(PieceType::Pawn).intersects(sq.bitboard().forward(color)) {
                    sink.add(color, Table::MinorBehindPawn, 0, 1);
                }
                if kind == PieceType::Bishop
                    && LONG_DIAGONALS.has(sq)
                    && (attacks::bishop(sq, board.pieces(PieceType::Pawn)) & CENTER).has_more_than_one()
                {
                    sink.add(color, Table::BishopLongDiagonal, 0, 1);
                }
            }
            PieceType::Rook => {
                let file = Bitboard::file(sq.file());
                if !board.pieces(PieceType::Pawn).intersects(file) {
                    sink.add(color, Table::RookOpenFile, 0, 1);
                } else if !board.colored_pieces(color, PieceType::Pawn).intersects(file) {
                    sink.add(color, Table::RookSemiOpenFile, 0, 1);
                }
                if sq.rank().relative_to(color) == Rank::Seventh {
                    sink.add(color, Table::RookOnSeventh, 0, 1);
                }
            }
            _ => {}
        }
    }
}

/// The pawn shield and open files in front of the king of `color`.
#[inline(always)]
fn king_shelter<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let king = board.king(color);
    let own = board.colored_pieces(color, PieceType::Pawn);
    let all = board.pieces(PieceType::Pawn);
    // The king's file and its neighbours, shifted inwards at the edge so there are always three.
    let center = (king.file() as usize).clamp(1, 6);
    // The ranks one and two squares in front of the king, if they exist.
    let rel = king.rank().relative_to(color) as usize;
    let rank_ahead =
        |d: usize| Rank::try_from_index(rel + d).map_or(Bitboard::EMPTY, |r| Bitboard::rank(r.relative_to(color)));
    let (near_rank, far_rank) = (rank_ahead(1), rank_ahead(2));
    for f in center - 1..=center + 1 {
        let file = Bitboard::file(File::ALL[f]);
        let mine = own & file;
        if mine.intersects(near_rank) {
            sink.add(color, Table::KingShieldNear, 0, 1);
        } else if mine.intersects(far_rank) {
            sink.add(color, Table::KingShieldFar, 0, 1);
        }
        // The enemy pawn nearest to our side of the board on this file.
        let storm = all & file & !own;
        let nearest = if color == Color::White { storm.first() } else { storm.last() };
        if let Some(pawn) = nearest {
            sink.add(color, Table::KingPawnStorm, pawn.rank().relative_to(color) as usize, 1);
        }
        if mine.is_empty() {
            sink.add(color, Table::KingSemiOpenFile, 0, 1);
            if !all.intersects(file) {
                sink.add(color, Table::KingOpenFile, 0, 1);
            }
        }
    }
}

/// Enemy pieces attacked by lesser pieces, by the king, and left hanging.
#[inline(always)]
fn threats<S: Sink>(board: &Board, color: Color, ours: &Attacks, pawns: Bitboard, theirs: &Attacks, sink: &mut S) {
    let them = !color;
    let king = attacks::king(board.king(color));
    let defended = theirs.all;
    for kind in PieceType::ALL {
        let targets = board.colored_pieces(them, kind);
        if targets.is_empty() {
            continue;
        }
        let k = kind as usize;
        let by = |attacks: Bitboard| (attacks & targets).len() as i32;
        let (p, m, r, q) = (by(pawns), by(ours.minors), by(ours.rooks), by(ours.queens));
        // Added even when zero: a branch on each count costs more than adding nothing.
        sink.add(color, Table::ThreatByPawn, k, p);
        sink.add(color, Table::ThreatByMinor, k, m);
        sink.add(color, Table::ThreatByRook, k, r);
        sink.add(color, Table::ThreatByQueen, k, q);
    }
    let pieces = board.colored(them) - board.pieces(PieceType::Pawn);
    let undefended = pieces - defended;
    sink.add(color, Table::ThreatByKing, 0, (king & undefended).len() as i32);
    sink.add(color, Table::Hanging, 0, (ours.all & undefended).len() as i32);

    // Safe pawn pushes (one square, or two from the start rank) that would attack a piece.
    let empty = !board.occupied();
    let own_pawns = board.colored_pieces(color, PieceType::Pawn);
    let single = own_pawns.forward(color) & empty;
    let double = (single & PUSH_RANK[color as usize]).forward(color) & empty;
    let enemy_pawn_attacks = pawn_attacks(them, board.colored_pieces(them, PieceType::Pawn));
    let safe = ((single | double) - enemy_pawn_attacks) & (ours.all | !theirs.all);
    sink.add(color, Table::ThreatPawnPush, 0, (pawn_attacks(color, safe) & pieces).len() as i32);
}

/// Safe checks against the enemy king and weak squares around it, counted for `color`, the
/// attacker.
#[inline(always)]
fn king_attack<S: Sink>(board: &Board, color: Color, ours: &Attacks, theirs: &Attacks, sink: &mut S) {
    let them = !color;
    let king = board.king(them);
    let occupied = board.occupied();
    let safe = !board.colored(color) - theirs.all;
    let bishop_lines = attacks::bishop(king, occupied);
    let rook_lines = attacks::rook(king, occupied);
    let checks = [
        attacks::knight(king) & ours.knights,
        bishop_lines & ours.bishops,
        rook_lines & ours.rooks,
        (bishop_lines | rook_lines) & ours.queens,
    ];
    for (k, squares) in checks.into_iter().enumerate() {
        sink.add(color, Table::SafeCheck, k, (squares & safe).len() as i32);
    }
    // Zone squares we attack that the enemy defends with no pawn, minor or rook.
    let zone = KING_ZONE[them as usize][king as usize];
    let strong = theirs.minors | theirs.rooks | pawn_attacks(them, board.colored_pieces(them, PieceType::Pawn));
    sink.add(color, Table::KingZoneWeak, 0, ((zone & ours.all) - strong).len() as i32);
}

/// The passed pawns of `color` beyond the pawn structure: blocked, free path, king distances.
#[inline(always)]
fn passed_pawns<S: Sink>(board: &Board, color: Color, passed: Bitboard, enemy_attacks: Bitboard, sink: &mut S) {
    let occupied = board.occupied();
    let (own_king, enemy_king) = (board.king(color), board.king(!color));
    for sq in passed {
        let rank = sq.rank().relative_to(color) as usize;
        let stop_bb = sq.bitboard().forward(color);
        let Some(stop) = stop_bb.first() else { continue };
        if occupied.intersects(stop_bb) {
            sink.add(color, Table::PassedBlocked, rank, 1);
        } else if !(occupied | enemy_attacks).intersects(FORWARD_FILE[color as usize][sq as usize]) {
            sink.add(color, Table::PassedFreePath, rank, 1);
        }
        sink.add(color, Table::PassedOwnKing, distance(own_king, stop), 1);
        sink.add(color, Table::PassedEnemyKing, distance(enemy_king, stop), 1);
    }
}

/// Reports every feature except the pawn structure (see [`crate::pawns`]) to `sink`;
/// `passed` is each side's set of passed pawns, `[white, black]`.
#[inline(always)]
pub(crate) fn features<S: Sink>(board: &Board, passed: [Bitboard; 2], sink: &mut S) {
    let pawn_bb =
        [board.colored_pieces(Color::White, PieceType::Pawn), board.colored_pieces(Color::Black, PieceType::Pawn)];
    let pawn_att = [pawn_attacks(Color::White, pawn_bb[0]), pawn_attacks(Color::Black, pawn_bb[1])];
    let mut att = [Attacks::default(); 2];

    for color in Color::ALL {
        let us = color as usize;
        let them = !color;
        let area = !board.colored(color) & !pawn_att[them as usize];
        let enemy_zone = KING_ZONE[them as usize][board.king(them) as usize];
        // Squares on ranks 4-6 that a pawn of ours defends and no enemy pawn can ever attack.
        let mut outposts = pawn_att[us] & OUTPOST_RANKS[us];
        for sq in outposts {
            if pawn_bb[them as usize].intersects(ADJACENT_FILES[sq.file() as usize] & PASSED_SPAN[us][sq as usize]) {
                outposts -= sq.bitboard();
            }
        }

        for kind in [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
            let n = board.colored_pieces(color, kind).len() as i32;
            if n > 0 {
                sink.add(color, Table::Material, kind as usize, n);
            }
        }
        for sq in pawn_bb[us] {
            sink.add(color, Table::PsqtPawn, psqt_index(color, sq), 1);
        }
        sink.add(color, Table::PsqtKing, psqt_index(color, board.king(color)), 1);
        let acc = &mut att[us];
        pieces::<1, S>(board, color, area, enemy_zone, outposts, acc, sink);
        pieces::<2, S>(board, color, area, enemy_zone, outposts, acc, sink);
        pieces::<3, S>(board, color, area, enemy_zone, outposts, acc, sink);
        pieces::<4, S>(board, color, area, enemy_zone, outposts, acc, sink);
        acc.minors = acc.knights | acc.bishops;
        acc.all = acc.minors | acc.rooks | acc.queens | pawn_att[us] | attacks::king(board.king(color));

        let own_pawns = pawn_bb[us].len() as i32;
        let knights = board.colored_pieces(color, PieceType::Knight).len() as i32;
        let rooks = board.colored_pieces(color, PieceType::Rook).len() as i32;
        if knights * own_pawns > 0 {
            sink.add(color, Table::KnightPawns, 0, knights * own_pawns);
        }
        if rooks * own_pawns > 0 {
            sink.add(color, Table::RookPawns, 0, rooks * own_pawns);
        }
        let bishops = board.colored_pieces(color, PieceType::Bishop);
        if bishops.intersects(Bitboard::LIGHT) && bishops.intersects(Bitboard::DARK) {
            sink.add(color, Table::BishopPair, 0, 1);
        }
        king_shelter(board, color, sink);
    }

    for color in Color::ALL {
        let (us, them) = (color as usize, !color as usize);
        sink.king_danger(!color, att[us].zone_hits, att[us].zone_attackers);
        threats(board, color, &att[us], pawn_att[us], &att[them], sink);
        king_attack(board, color, &att[us], &att[them], sink);
        passed_pawns(board, color, passed[us], att[them].all, sink);
    }
    sink.add(board.side_to_move(), Table::Tempo, 0, 1);
}

/// Ranks 4 to 6 from each side's point of view, `[white, black]`.
const OUTPOST_RANKS: [Bitboard; 2] = [
    Bitboard::rank(Rank::Fourth).union(Bitboard::rank(Rank::Fifth)).union(Bitboard::rank(Rank::Sixth)),
    Bitboard::rank(Rank::Fifth).union(Bitboard::rank(Rank::Fourth)).union(Bitboard::rank(Rank::Third)),
];

/// The rank a pawn double-pushes from, seen as the rank it reaches with its first step:
/// the third rank, `[white, black]`.
const PUSH_RANK: [Bitboard; 2] = [Bitboard::rank(Rank::Third), Bitboard::rank(Rank::Sixth)];

/// The centre squares d4, e4, d5 and e5.
const CENTER: Bitboard = Bitboard::file(File::D)
    .union(Bitboard::file(File::E))
    .and(Bitboard::rank(Rank::Fourth).union(Bitboard::rank(Rank::Fifth)));

/// The a1-h8 and h1-a8 diagonals.
const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);

/// Blends `white - black`, turns to the side to move's view and clamps.
#[inline(always)]
pub(crate) fn finish(board: &Board, sides: [Score; 2], phase: i32) -> i32 {
    let white = (sides[0] - sides[1]).taper(phase);
    let stm = if board.side_to_move() == Color::White { white } else { -white };
    stm.clamp(-crate::MAX_EVAL, crate::MAX_EVAL)
}
