//! Legal move generation by kind, bulk counting, and `is_legal` for any 16-bit move.
//!
//! One generic generator serves three consumers ("sinks"): a list builder
//! ([`Board::generate`]), a counter that adds up target-set sizes without building moves
//! ([`Board::count_moves`], used for perft bulk counting), and a single-move finder
//! ([`Board::is_legal`], which generates only from the moving piece's square). Sharing one
//! generator means the three can never disagree.

use crate::attacks;
use crate::{Bitboard, Board, CastlingRights, CastlingSide, Color, Move, MoveKind, PieceType, Rank, Square};

/// Which moves to generate.
///
/// In check, every kind is restricted to evasions (capture the checker, interpose, move the
/// king; only king moves in double check), split between noisy and quiet as usual.
/// `Noisy ∪ Quiet = All`, and the two are disjoint.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, GenKind, MoveList};
/// let count = |board: &Board, kind| {
///     let mut moves = MoveList::new();
///     board.generate(kind, &mut moves);
///     moves.len()
/// };
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
/// assert_eq!(count(&board, GenKind::Noisy) + count(&board, GenKind::Quiet), count(&board, GenKind::All));
/// // In check from the rook on e2, only evasions: Kxe2 (noisy), Kd1 and Kf1 (quiet).
/// let check = Board::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// assert_eq!((count(&check, GenKind::Noisy), count(&check, GenKind::Quiet)), (1, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GenKind {
    /// Captures (including en passant) and all promotions (including under-promotions and
    /// quiet promotions).
    Noisy,
    /// Every other move: quiet piece moves, pawn pushes, castling.
    Quiet,
    /// Every legal move.
    All,
}

impl GenKind {
    #[inline(always)]
    const fn noisy(self) -> bool {
        !matches!(self, GenKind::Quiet)
    }
    #[inline(always)]
    const fn quiet(self) -> bool {
        !matches!(self, GenKind::Noisy)
    }
}

/// The four corner squares.
const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

/// Pawn move categories for bulk pawn sets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PawnSet {
    Push,
    DoublePush,
    Capture,
    Promote,
    CapturePromote,
}

trait Sink {
    /// Piece (not pawn) moves from `from` to every square of `targets`; the ones in `theirs` capture.
    fn piece(&mut self, from: Square, targets: Bitboard, theirs: Bitboard);
    /// Pawn moves to every square of `targets`, each from `to - delta` (delta in square indices).
    fn pawns(&mut self, targets: Bitboard, delta: i8, set: PawnSet);
    /// One move.
    fn single(&mut self, mv: Move);
    /// Whether generation may stop (the finder found its move).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

/// Bulk move counting from target sets.
///
/// Without a hardware popcount (the default `x86-64` target has none) a software popcount
/// costs about a dozen instructions, most of them in its last step, the horizontal sum of
/// the byte counts. So the counter keeps the per-byte (per-rank) counts of every target set
/// in eight lanes and sums the lanes once, at the end. A lane cannot overflow: a square is
/// the target of at most 16 moves of one side (one per direction, one per knight jump), so a
/// rank's lane stays at or below 8 × 16 = 128. Promotions count four moves per target and
/// go straight to `total`, as do single moves.
struct Counter {
    total: u64,
    #[cfg(not(target_feature = "popcnt"))]
    lanes: u64,
}

impl Counter {
    #[inline(always)]
    fn new() -> Counter {
        Counter {
            total: 0,
            #[cfg(not(target_feature = "popcnt"))]
            lanes: 0,
        }
    }

    #[inline(always)]
    fn add(&mut self, targets: Bitboard) {
        #[cfg(target_feature = "popcnt")]
        {
            self.total += targets.len() as u64;
        }
        #[cfg(not(target_feature = "popcnt"))]
        {
            // The first three steps of the classic SWAR popcount: a bit count per byte.
            let x = targets.0;
            let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
            let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
            self.lanes += (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        }
    }

    #[inline(always)]
    fn finish(self) -> u64 {
        #[cfg(target_feature = "popcnt")]
        {
            self.total
        }
        #[cfg(not(target_feature = "popcnt"))]
        {
            // Eight byte lanes (each <= 128) into four 16-bit lanes, then their sum (<= 1024).
            const LOW_BYTES: u64 = 0x00FF_00FF_00FF_00FF;
            let pairs = (self.lanes & LOW_BYTES) + ((self.lanes >> 8) & LOW_BYTES);
            self.total + (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48)
        }
    }
}

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _: Square, targets: Bitboard, _: Bitboard) {
        self.add(targets);
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _: i8, set: PawnSet) {
        if matches!(set, PawnSet::Promote | PawnSet::CapturePromote) {
            self.total += 4 * targets.len() as u64;
        } else {
            self.add(targets);
        }
    }
    #[inline(always)]
    fn single(&mut self, _: Move) {
        self.total += 1;
    }
}

struct Lister<'a, E: Extend<Move>>(&'a mut E);

impl<E: Extend<Move>> Sink for Lister<'_, E> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard, theirs: Bitboard) {
        for to in targets {
            let kind = if theirs.has(to) { MoveKind::Capture } else { MoveKind::Quiet };
            self.0.extend(Some(Move::new(from, to, kind)));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8, set: PawnSet) {
        for to in targets {
            let from = Square::index_const((to as i8 - delta) as usize);
            match set {
                PawnSet::Push => self.0.extend(Some(Move::new(from, to, MoveKind::Quiet))),
                PawnSet::DoublePush => self.0.extend(Some(Move::new(from, to, MoveKind::DoublePush))),
                PawnSet::Capture => self.0.extend(Some(Move::new(from, to, MoveKind::Capture))),
                PawnSet::Promote => self.0.extend([
                    Move::new(from, to, MoveKind::PromoteQueen),
                    Move::new(from, to, MoveKind::PromoteKnight),
                    Move::new(from, to, MoveKind::PromoteRook),
                    Move::new(from, to, MoveKind::PromoteBishop),
                ]),
                PawnSet::CapturePromote => self.0.extend([
                    Move::new(from, to, MoveKind::CapturePromoteQueen),
                    Move::new(from, to, MoveKind::CapturePromoteKnight),
                    Move::new(from, to, MoveKind::CapturePromoteRook),
                    Move::new(from, to, MoveKind::CapturePromoteBishop),
                ]),
            }
        }
    }
    #[inline(always)]
    fn single(&mut self, mv: Move) {
        self.0.extend(Some(mv));
    }
}

struct Finder {
    wanted: Move,
    found: bool,
}

impl Sink for Finder {
    fn piece(&mut self, from: Square, targets: Bitboard, theirs: Bitboard) {
        let to = self.wanted.to();
        if from == self.wanted.from() && targets.has(to) {
            let kind = if theirs.has(to) { MoveKind::Capture } else { MoveKind::Quiet };
            self.found |= self.wanted.kind() == kind;
        }
    }
    fn pawns(&mut self, targets: Bitboard, delta: i8, set: PawnSet) {
        let (from, to) = (self.wanted.from(), self.wanted.to());
        if !targets.has(to) || to as i8 - delta != from as i8 {
            return;
        }
        let kind = self.wanted.kind();
        self.found |= match set {
            PawnSet::Push => kind == MoveKind::Quiet,
            PawnSet::DoublePush => kind == MoveKind::DoublePush,
            PawnSet::Capture => kind == MoveKind::Capture,
            PawnSet::Promote => self.wanted.is_promotion() && !self.wanted.is_capture(),
            PawnSet::CapturePromote => self.wanted.is_promotion() && self.wanted.is_capture(),
        };
    }
    fn single(&mut self, mv: Move) {
        self.found |= mv == self.wanted;
    }
    fn done(&self) -> bool {
        self.found
    }
}

impl Board {
    /// Appends the legal moves of `kind` to `out`.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, GenKind, MoveList};
    /// let board = Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
    /// let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
    /// board.generate(GenKind::Noisy, &mut noisy);
    /// board.generate(GenKind::Quiet, &mut quiet);
    /// assert_eq!((noisy.len(), quiet.len()), (8, 40));
    /// ```
    #[inline]
    pub fn generate(&self, kind: GenKind, out: &mut impl Extend<Move>) {
        self.gen_moves(kind, Bitboard::FULL, &mut Lister(out));
    }

    /// The legal moves of this position in a new list.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// assert_eq!(Board::default().legal_moves().len(), 20);
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// assert_eq!(board.legal_moves().len(), 48);
    /// assert!(board.legal_moves().iter().all(|&mv| board.is_legal(mv)));
    /// ```
    pub fn legal_moves(&self) -> crate::MoveList {
        let mut list = crate::MoveList::new();
        self.generate(GenKind::All, &mut list);
        list
    }

    /// The number of legal moves, counted in bulk from target sets without building a list.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// assert_eq!(Board::default().count_moves(), 20);
    /// ```
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let mut c = Counter::new();
        self.gen_moves(GenKind::All, Bitboard::FULL, &mut c);
        c.finish()
    }

    /// Whether the side to move has at least one legal move.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// assert!(Board::default().has_legal_moves());
    /// // Stalemate: Black is not in check but cannot move.
    /// let stalemate = Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", CastlingMode::Standard).unwrap();
    /// assert!(!stalemate.has_legal_moves());
    /// assert!(!stalemate.in_check());
    /// ```
    pub fn has_legal_moves(&self) -> bool {
        // Cheap in practice: most positions have a king or piece move found at once.
        self.count_moves() > 0
    }

    /// Whether `mv` is legal in this position. Accepts any move, including moves taken from
    /// another position (a hash-table or killer move); only the moves of the piece on
    /// `mv.from()` are generated, never the whole list.
    ///
    /// ```
    /// use cutoff_board::{Board, Move, MoveKind, Square};
    /// let board = Board::default();
    /// assert!(board.is_legal(Move::new(Square::G1, Square::F3, MoveKind::Quiet)));
    /// assert!(!board.is_legal(Move::new(Square::G1, Square::F3, MoveKind::Capture)));
    /// assert!(!board.is_legal(Move::new(Square::E2, Square::E4, MoveKind::Quiet))); // must be DoublePush
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        let from = mv.from();
        match self.piece_on(from) {
            Some(p) if p.color() == self.side_to_move => {}
            _ => return false,
        }
        let kind = if mv.is_noisy() { GenKind::Noisy } else { GenKind::Quiet };
        let mut finder = Finder { wanted: mv, found: false };
        self.gen_moves(kind, from.bitboard(), &mut finder);
        finder.found
    }

    /// The generator. `from_mask` restricts the moving pieces (for `is_legal`).
    #[inline(always)]
    fn gen_moves<S: Sink>(&self, kind: GenKind, from_mask: Bitboard, sink: &mut S) {
        let us = self.side_to_move;
        let king = self.king(us);
        let ours = self.colored(us);
        let theirs = self.colored(!us);
        let occupied = ours | theirs;

        if from_mask.has(king) {
            self.gen_king(kind, king, ours, theirs, sink);
            if sink.done() {
                return;
            }
        }

        let check_mask = match self.checkers.first() {
            None => Bitboard::FULL,
            Some(checker) => {
                if self.checkers.has_more_than_one() {
                    return;
                }
                attacks::between(king, checker) | checker
            }
        };

        let mut targets = Bitboard::EMPTY;
        if kind.noisy() {
            targets |= theirs;
        }
        if kind.quiet() {
            targets |= !occupied;
        }
        targets &= check_mask;

        // In check, a pinned piece can never evade (it cannot leave the pin line, and
        // neither capturing the checker nor interposing is on it).
        let pinned = self.pinned;
        let movable = if self.in_check() { ours - pinned } else { ours } & from_mask;

        self.gen_pawns(kind, movable, king, theirs, occupied, check_mask, sink);

        let knights = self.by_kind[PieceType::Knight as usize] & (movable - pinned);
        for from in knights {
            sink.piece(from, attacks::knight(from) & targets, theirs);
        }
        let queens = self.by_kind[PieceType::Queen as usize];
        let diagonal = (self.by_kind[PieceType::Bishop as usize] | queens) & movable;
        for from in diagonal - pinned {
            sink.piece(from, attacks::bishop(from, occupied) & targets, theirs);
        }
        for from in diagonal & pinned {
            sink.piece(from, attacks::bishop(from, occupied) & targets & attacks::line(king, from), theirs);
        }
        let straight = (self.by_kind[PieceType::Rook as usize] | queens) & movable;
        for from in straight - pinned {
            sink.piece(from, attacks::rook(from, occupied) & targets, theirs);
        }
        for from in straight & pinned {
            sink.piece(from, attacks::rook(from, occupied) & targets & attacks::line(king, from), theirs);
        }
    }

    #[inline(always)]
    fn gen_king<S: Sink>(&self, kind: GenKind, king: Square, ours: Bitboard, theirs: Bitboard, sink: &mut S) {
        let us = self.side_to_move;
        let mut targets = Bitboard::EMPTY;
        if kind.noisy() {
            targets |= theirs;
        }
        if kind.quiet() {
            targets |= !(ours | theirs);
        }
        let without_king = (ours | theirs) - king;
        let mut legal = Bitboard::EMPTY;
        let king_targets = attacks::king(king) & targets;
        for to in king_targets {
            if !self.attacked_with(to, !us, without_king) {
                legal |= to;
            }
        }
        sink.piece(king, legal, theirs);

        if kind.quiet() && !self.in_check() && self.castling.intersects(CastlingRights::for_color(us)) {
            let occupied = ours | theirs;
            self.gen_castle(CastlingSide::King, king, occupied, king_targets, legal, sink);
            self.gen_castle(CastlingSide::Queen, king, occupied, king_targets, legal, sink);
        }
    }

    /// The castling move to `side`, if the right remains, the path is clear and safe.
    /// `king_targets` are the squares next to the king that [`Board::gen_king`] tested, `safe`
    /// those found safe.
    #[inline(always)]
    fn gen_castle<S: Sink>(
        &self,
        side: CastlingSide,
        king: Square,
        occupied: Bitboard,
        king_targets: Bitboard,
        safe: Bitboard,
        sink: &mut S,
    ) {
        let us = self.side_to_move;
        if !self.castling.contains(CastlingRights::new(us, side)) {
            return;
        }
        let rook = self.castle_rooks[us as usize][side as usize];
        let king_to = side.king_destination(us);
        let rook_to = side.rook_destination(us);
        let path = attacks::between(king, king_to) | king_to | attacks::between(rook, rook_to) | rook_to;
        let occupied = occupied - king - rook;
        if (path & occupied).is_empty() && self.castling_is_safe(king, king_to, rook, occupied, king_targets, safe) {
            sink.single(Move::new(king, rook, MoveKind::Castle));
        }
    }

    /// Whether every square the king crosses when castling, its destination included, is safe
    /// once the castling rook has left (in Chess960 that rook may shield the king). The path
    /// is clear; `occupied` has neither the king nor the rook. `king_targets` are the squares
    /// next to the king that [`Board::gen_king`] just tested, `safe` those found safe.
    ///
    /// Out of line: in most positions a right is missing or the path is blocked.
    #[inline(never)]
    fn castling_is_safe(
        &self,
        king: Square,
        king_to: Square,
        rook: Square,
        occupied: Bitboard,
        king_targets: Bitboard,
        safe: Bitboard,
    ) -> bool {
        let mut king_path = attacks::between(king, king_to) | king_to;
        // The squares next to the king were tested with the king lifted. Lifting a rook from
        // a corner as well opens no line (a corner ends every line through it), so for a
        // corner rook, always the case in standard chess, those results hold here.
        if CORNERS.has(rook) {
            let tested = king_path & king_targets;
            if !tested.is_subset(safe) {
                return false;
            }
            king_path -= tested;
        }
        let them = !self.side_to_move;
        king_path.into_iter().all(|sq| !self.attacked_with(sq, them, occupied))
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn gen_pawns<S: Sink>(
        &self,
        kind: GenKind,
        movable: Bitboard,
        king: Square,
        theirs: Bitboard,
        occupied: Bitboard,
        check_mask: Bitboard,
        sink: &mut S,
    ) {
        let us = self.side_to_move;
        let pawns = self.by_kind[PieceType::Pawn as usize] & movable;
        if pawns.is_empty() {
            return;
        }
        let last_rank = Bitboard::rank(Rank::Eighth.relative_to(us));
        let seventh_rank = Bitboard::rank(Rank::Seventh.relative_to(us));
        let third_rank = Bitboard::rank(Rank::Third.relative_to(us));
        let empty = !occupied;
        let up: i8 = if us == Color::White { 8 } else { -8 };
        let (dw, de) = if us == Color::White { (7, 9) } else { (-9, -7) };
        let targets = theirs & check_mask;

        // Pinned pawns move only along the line through their king. A pawn pinned on a file
        // may push; one pinned on a diagonal may capture the pinner; a rank pin freezes it.
        let free = pawns - self.pinned;
        let file_pinned = pawns & self.pinned & Bitboard::file(king.file());
        let pushers = free | file_pinned;

        // Pawns below the seventh rank: pushes and captures that do not promote.
        let single = (pushers - seventh_rank).forward(us) & empty;
        if kind.quiet() {
            let double = (single & third_rank).forward(us) & empty & check_mask;
            sink.pawns(single & check_mask, up, PawnSet::Push);
            sink.pawns(double, 2 * up, PawnSet::DoublePush);
        }
        if kind.noisy() {
            let (west, east) = attacks::pawn_captures(us, free - seventh_rank);
            sink.pawns(west & targets, dw, PawnSet::Capture);
            sink.pawns(east & targets, de, PawnSet::Capture);

            // Pawns on the seventh rank (rare): every move promotes.
            if (pawns & seventh_rank).is_nonempty() {
                sink.pawns((pushers & seventh_rank).forward(us) & empty & check_mask, up, PawnSet::Promote);
                let (west, east) = attacks::pawn_captures(us, free & seventh_rank);
                sink.pawns(west & targets, dw, PawnSet::CapturePromote);
                sink.pawns(east & targets, de, PawnSet::CapturePromote);
            }

            for from in pawns & (self.pinned - file_pinned) {
                let caps = attacks::pawn(us, from) & targets & attacks::line(king, from);
                for to in caps {
                    let set = if last_rank.has(to) { PawnSet::CapturePromote } else { PawnSet::Capture };
                    sink.pawns(to.bitboard(), to as i8 - from as i8, set);
                }
            }

            if let Some(ep) = self.en_passant {
                for from in attacks::pawn(!us, ep) & pawns {
                    if self.en_passant_is_legal(from, ep, king) {
                        sink.single(Move::new(from, ep, MoveKind::EnPassant));
                    }
                }
            }
        }
    }

    /// Full simulation: after the capture, no enemy piece may attack our king.
    #[inline(never)]
    fn en_passant_is_legal(&self, from: Square, ep: Square, king: Square) -> bool {
        let us = self.side_to_move;
        let captured = Square::new(ep.file(), from.rank());
        let occupied = (self.occupied() - from - captured) | ep;
        let theirs = self.colored(!us) - captured;
        let bq = (self.by_kind[PieceType::Bishop as usize] | self.by_kind[PieceType::Queen as usize]) & theirs;
        let rq = (self.by_kind[PieceType::Rook as usize] | self.by_kind[PieceType::Queen as usize]) & theirs;
        (attacks::bishop(king, occupied) & bq).is_empty()
            && (attacks::rook(king, occupied) & rq).is_empty()
            && (attacks::knight(king) & self.by_kind[PieceType::Knight as usize] & theirs).is_empty()
            && (attacks::pawn(us, king) & self.by_kind[PieceType::Pawn as usize] & theirs).is_empty()
    }
}
