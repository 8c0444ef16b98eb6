//! Making and taking back moves: the board edits that keep the keys, the mailbox and the
//! checks in step, `play` and its checked and unchecked forms, make/unmake with [`Undo`], and
//! the null move.

use core::fmt;

use crate::attacks;
use crate::board::DEFAULT_CASTLE_ROOKS;
use crate::zobrist;
use crate::{Bitboard, Board, CastlingRights, CastlingSide, Color, Move, MoveKind, Piece, PieceType, Rank, Square};

impl Board {
    #[inline(always)]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bitboard();
        self.by_kind[piece.kind() as usize] |= bb;
        self.by_color[piece.color() as usize] |= bb;
        self.mailbox[sq as usize] = Some(piece);
        self.toggle_keys(piece, zobrist::piece(piece, sq));
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bitboard();
        self.by_kind[piece.kind() as usize] ^= bb;
        self.by_color[piece.color() as usize] ^= bb;
        self.mailbox[sq as usize] = None;
        self.toggle_keys(piece, zobrist::piece(piece, sq));
    }

    #[inline(always)]
    fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bb = from.bitboard() | to;
        self.by_kind[piece.kind() as usize] ^= bb;
        self.by_color[piece.color() as usize] ^= bb;
        self.mailbox[from as usize] = None;
        self.mailbox[to as usize] = Some(piece);
        self.toggle_keys(piece, zobrist::piece(piece, from) ^ zobrist::piece(piece, to));
    }

    /// XORs `k`, a key of `piece` on some squares, into the position's key and into the pawn
    /// key or its colour's non-pawn key, whichever `piece` belongs to.
    #[inline(always)]
    fn toggle_keys(&mut self, piece: Piece, k: u64) {
        self.key ^= k;
        if piece.kind() == PieceType::Pawn {
            self.pawn_key ^= k;
        } else {
            self.non_pawn_keys[piece.color() as usize] ^= k;
        }
    }

    /// Sets the castling rights, keeping the key in step.
    #[inline(always)]
    pub(crate) fn set_castling(&mut self, rights: CastlingRights) {
        self.key ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
        self.castling = rights;
        // Forget the rook of a lost right, so that equal positions compare equal.
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if !rights.contains(CastlingRights::new(color, side)) {
                    self.castle_rooks[color as usize][side as usize] =
                        DEFAULT_CASTLE_ROOKS[color as usize][side as usize];
                }
            }
        }
    }

    /// Recomputes checkers and pinned pieces for the side to move.
    #[inline(always)]
    pub(crate) fn update_checks_and_pins(&mut self) {
        let us = self.side_to_move;
        let them = !us;
        let king = self.king(us);
        let theirs = self.by_color[them as usize];
        let occupied = self.occupied();
        let bq = (self.by_kind[PieceType::Bishop as usize] | self.by_kind[PieceType::Queen as usize]) & theirs;
        let rq = (self.by_kind[PieceType::Rook as usize] | self.by_kind[PieceType::Queen as usize]) & theirs;
        let mut checkers = (attacks::knight(king) & self.by_kind[PieceType::Knight as usize] & theirs)
            | (attacks::pawn(us, king) & self.by_kind[PieceType::Pawn as usize] & theirs);
        let mut pinned = Bitboard::EMPTY;
        let snipers = (attacks::rook(king, theirs) & rq) | (attacks::bishop(king, theirs) & bq);
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers |= sniper;
            } else if !blockers.has_more_than_one() {
                pinned |= blockers;
            }
        }
        self.checkers = checkers;
        self.pinned = pinned;
    }

    /// Plays `mv`, which must be legal in this position (for example one produced by
    /// [`Board::generate`] or accepted by [`Board::is_legal`]). An illegal move leaves the
    /// board in an unspecified (but memory-safe) state (a king may even be captured); use
    /// [`Board::try_play`] (checked, with an [`IllegalMoveError`]) for moves that come from
    /// outside. Debug builds panic on a move that is not even pseudo-legal in shape: no piece
    /// of the side to move on `from`, a capture of a king or of an own piece.
    ///
    /// A full legality check costs about as much as generating the move, which is what the
    /// unchecked variant exists to avoid in search and perft; the checked variants are
    /// [`Board::try_play`], [`Board::try_san`], [`Board::try_see`] and [`Board::try_see_ge`].
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, Color};
    /// // Copy-make over every legal move of Kiwipete: each child is consistent.
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// for mv in board.legal_moves() {
    ///     let mut child = board;
    ///     child.play_unchecked(mv);
    ///     assert_eq!(child.side_to_move(), Color::Black);
    ///     assert_eq!(child.compute_keys(), (child.key(), child.pawn_key()));
    ///     assert!(child.validate().is_ok());
    /// }
    /// ```
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
    }

    /// Debug builds: panics unless a piece of the side to move stands on `mv.from()` and
    /// (except for castling) `mv.to()` holds neither a king nor a piece of the side to move.
    /// A cheap shape check, not full legality (which costs a move generation).
    #[inline(always)]
    pub(crate) fn debug_assert_mover(&self, mv: Move) {
        if cfg!(debug_assertions) {
            let us = self.side_to_move;
            let ours = self.mailbox[mv.from() as usize].is_some_and(|p| p.color() == us);
            let target_ok = mv.is_castle()
                || self.mailbox[mv.to() as usize].is_none_or(|p| p.color() != us && p.kind() != PieceType::King);
            assert!(ours && target_ok, "the move {mv:?} is illegal in {}", self.fen());
        }
    }

    /// The body of [`Board::play_unchecked`], inlined into [`Board::make_move`] as well.
    #[inline(always)]
    fn apply(&mut self, mv: Move) {
        let us = self.side_to_move;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        self.debug_assert_mover(mv);
        let Some(piece) = self.mailbox[from as usize] else {
            return;
        };

        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);

        match mv.kind() {
            MoveKind::Castle => {
                let side = if to.file() > from.file() { CastlingSide::King } else { CastlingSide::Queen };
                let rook = Piece::new(us, PieceType::Rook);
                self.remove(piece, from);
                self.remove(rook, to);
                self.put(piece, side.king_destination(us));
                self.put(rook, side.rook_destination(us));
            }
            kind => {
                if mv.is_capture() {
                    let target = if kind == MoveKind::EnPassant { Square::new(to.file(), from.rank()) } else { to };
                    if let Some(captured) = self.mailbox[target as usize] {
                        self.remove(captured, target);
                    }
                    self.halfmove_clock = 0;
                }
                if let Some(promo) = mv.promotion() {
                    self.remove(piece, from);
                    self.put(Piece::new(us, promo), to);
                } else {
                    self.shift_piece(piece, from, to);
                }
                if piece.kind() == PieceType::Pawn {
                    self.halfmove_clock = 0;
                    if kind == MoveKind::DoublePush {
                        let ep = Square::new(from.file(), Rank::Third.relative_to(us));
                        if (attacks::pawn(us, ep) & self.colored_pieces(them, PieceType::Pawn)).is_nonempty() {
                            self.en_passant = Some(ep);
                            self.key ^= zobrist::en_passant(ep.file());
                        }
                    }
                }
            }
        }

        // A right is lost when its king or rook moves or its rook is captured; both stand on
        // their back rank while the right lasts, so moves that touch neither back rank skip this.
        const BACK_RANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);
        if !self.castling.is_empty() && BACK_RANKS.intersects(from.bitboard() | to) {
            let mut lost = CastlingRights::empty();
            if piece.kind() == PieceType::King {
                lost |= CastlingRights::for_color(us);
            }
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    let rook = self.castle_rooks[color as usize][side as usize];
                    if rook == from || rook == to {
                        lost |= CastlingRights::new(color, side);
                    }
                }
            }
            if self.castling.intersects(lost) {
                self.set_castling(self.castling - lost);
            }
        }

        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = them;
        self.key ^= zobrist::side();
        self.update_checks_and_pins();
    }

    /// Plays `mv` (which must be legal, as for [`Board::play_unchecked`]) and returns what
    /// [`Board::unmake_move`] needs to take it back. Make/unmake measured 4–8% faster
    /// than copy-make in perft here (`cargo run --release -p cutoff-board --example make_vs_copy`),
    /// so [`Board::perft`] uses it; copying the board remains available since `Board` is `Copy`.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let mut board = Board::default();
    /// let before = board;
    /// let mv = board.parse_uci("e2e4").unwrap();
    /// let undo = board.make_move(mv);
    /// board.unmake_move(mv, undo);
    /// assert_eq!(board, before);
    /// ```
    #[inline]
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let captured = match mv.kind() {
            MoveKind::Castle => None,
            MoveKind::EnPassant => self.mailbox[Square::new(mv.to().file(), mv.from().rank()) as usize],
            _ => self.mailbox[mv.to() as usize],
        };
        let undo = Undo {
            captured,
            castling: self.castling,
            castle_rooks: self.castle_rooks,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
            pawn_key: self.pawn_key,
            checkers: self.checkers,
            pinned: self.pinned,
        };
        self.apply(mv);
        undo
    }

    /// Takes back `mv`, which must be the last move made with [`Board::make_move`] on this
    /// board, restoring the position exactly.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let mut board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let before = board;
    /// for mv in before.legal_moves() {
    ///     let undo = board.make_move(mv);
    ///     assert_ne!(board, before);
    ///     board.unmake_move(mv, undo);
    ///     assert_eq!(board, before); // castling, en passant, captures and promotions alike
    /// }
    /// ```
    #[inline]
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let us = !self.side_to_move;
        self.side_to_move = us;
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_sub(1);
        }
        let from = mv.from();
        let to = mv.to();
        if mv.is_castle() {
            let side = if to.file() > from.file() { CastlingSide::King } else { CastlingSide::Queen };
            let king = Piece::new(us, PieceType::King);
            let rook = Piece::new(us, PieceType::Rook);
            self.remove(king, side.king_destination(us));
            self.remove(rook, side.rook_destination(us));
            self.put(king, from);
            self.put(rook, to);
        } else if let Some(moved) = self.mailbox[to as usize] {
            if mv.is_promotion() {
                self.remove(moved, to);
                self.put(Piece::new(us, PieceType::Pawn), from);
            } else {
                self.shift_piece(moved, to, from);
            }
            if let Some(captured) = undo.captured {
                let sq = if mv.is_en_passant() { Square::new(to.file(), from.rank()) } else { to };
                self.put(captured, sq);
            }
        }
        self.castling = undo.castling;
        self.castle_rooks = undo.castle_rooks;
        self.en_passant = undo.en_passant;
        self.halfmove_clock = undo.halfmove_clock;
        self.key = undo.key;
        self.pawn_key = undo.pawn_key;
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
    }

    /// Plays `mv` if it is legal here; otherwise leaves the board unchanged and returns an error.
    ///
    /// ```
    /// use cutoff_board::{Board, Move, MoveKind, Square};
    /// let mut board = Board::default();
    /// let bad = Move::new(Square::E2, Square::E5, MoveKind::Quiet);
    /// assert!(board.try_play(bad).is_err());
    /// assert_eq!(board, Board::default());
    /// ```
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMoveError { mv })
        }
    }

    /// Plays `mv`, panicking if it is illegal. Convenient in examples and tests; prefer
    /// [`Board::try_play`] for untrusted moves and [`Board::play_unchecked`] in hot loops.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let mut board = Board::default();
    /// for mv in ["e2e4", "e7e5", "g1f3"] {
    ///     board.play(board.parse_uci(mv).unwrap());
    /// }
    /// assert_eq!(board.fen().to_string(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    /// ```
    ///
    /// An illegal move panics:
    ///
    /// ```should_panic
    /// use cutoff_board::{Board, Move, MoveKind, Square};
    /// let mut board = Board::default();
    /// board.play(Move::new(Square::E1, Square::E2, MoveKind::Quiet)); // e2 holds a white pawn
    /// ```
    pub fn play(&mut self, mv: Move) {
        if let Err(e) = self.try_play(mv) {
            panic!("{e} in {}", self.fen());
        }
    }

    /// The position after passing the move ("null move"), or `None` when in check.
    /// The en passant square is cleared and the halfmove clock advances.
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// let null = Board::default().null_move().unwrap();
    /// assert_eq!(null.side_to_move(), Color::Black);
    /// ```
    pub fn null_move(&self) -> Option<Board> {
        if self.in_check() {
            return None;
        }
        let mut b = *self;
        if let Some(ep) = b.en_passant.take() {
            b.key ^= zobrist::en_passant(ep.file());
        }
        b.halfmove_clock = b.halfmove_clock.saturating_add(1);
        if b.side_to_move == Color::Black {
            b.fullmove_number = b.fullmove_number.saturating_add(1);
        }
        b.side_to_move = !b.side_to_move;
        b.key ^= zobrist::side();
        b.update_checks_and_pins();
        Some(b)
    }
}

/// What [`Board::unmake_move`] needs to take a move back (returned by [`Board::make_move`]).
///
/// ```
/// use cutoff_board::{Board, CastlingMode, Piece, Square};
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let mut board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
/// let dxe6 = board.parse_uci("d5e6").unwrap();
/// let undo = board.make_move(dxe6);
/// assert_eq!(board.piece_on(Square::E6), Some(Piece::WhitePawn));
/// board.unmake_move(dxe6, undo); // the captured pawn comes back
/// assert_eq!(board.piece_on(Square::E6), Some(Piece::BlackPawn));
/// assert_eq!(board.fen().to_string(), kiwipete);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: Option<Piece>,
    castling: CastlingRights,
    castle_rooks: [[Square; 2]; 2],
    en_passant: Option<Square>,
    halfmove_clock: u16,
    key: u64,
    pawn_key: u64,
    checkers: Bitboard,
    pinned: Bitboard,
}

/// The error returned by [`Board::try_play`] for a move that is not legal in the position.
///
/// ```
/// use cutoff_board::{Board, IllegalMoveError, Move, MoveKind, Square};
/// let mut board = Board::default();
/// let bad = Move::new(Square::E2, Square::E5, MoveKind::Quiet);
/// assert_eq!(board.try_play(bad), Err(IllegalMoveError { mv: bad }));
/// assert_eq!(board.try_play(bad).unwrap_err().to_string(), "illegal move e2e5");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The rejected move.
    pub mv: Move,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.mv)
    }
}

impl core::error::Error for IllegalMoveError {}
