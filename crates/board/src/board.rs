//! The position: pieces, side to move, castling, en passant, clocks and keys.

use core::fmt;

use crate::attacks;
use crate::zobrist;
use crate::{Bitboard, CastlingMode, CastlingRights, CastlingSide, Color, File, Move, Piece, PieceType, Rank, Square};

/// The squares from which each piece type of the side to move gives check, and its pieces
/// that give a discovered check by moving off their line: see [`Board::check_squares`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckSquares {
    squares: [Bitboard; 6],
    discoverers: Bitboard,
    king: Square,
}

/// A chess position (standard chess or Chess960) with everything needed to generate and
/// make moves: bitboards by piece type and colour, a square-to-piece table, castling rights
/// and castling rooks, the en passant square, the clocks, incremental Zobrist keys, and the
/// checkers and pinned pieces of the side to move.
///
/// `Board` is `Copy` (176 bytes), so a move can be made on a copy ("copy-make");
/// [`Board::make_move`] / [`Board::unmake_move`] do it in place, which measured 4–8%
/// faster in perft (see `docs/benchmarks.md`).
///
/// A `Board` is always valid: it can only be built from a FEN that passes
/// [`Board::validate`] and changed by legal moves.
///
/// ```
/// use cutoff_board::{Board, GenKind, MoveList};
/// let mut board = Board::default();
/// let mut moves = MoveList::new();
/// board.generate(GenKind::All, &mut moves);
/// assert_eq!(moves.len(), 20);
/// board.play(board.parse_uci("e2e4").unwrap());
/// assert_eq!(board.fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) mailbox: [Option<Piece>; 64],
    pub(crate) key: u64,
    pub(crate) pawn_key: u64,
    /// Zobrist keys of each colour's pieces other than pawns (kings included).
    pub(crate) non_pawn_keys: [u64; 2],
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
    /// The castling rook of each colour and side; meaningful only while the right is held.
    pub(crate) castle_rooks: [[Square; 2]; 2],
    pub(crate) side_to_move: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) en_passant: Option<Square>,
    pub(crate) halfmove_clock: u16,
    pub(crate) fullmove_number: u16,
    pub(crate) chess960: bool,
}

impl Default for Board {
    /// The standard starting position.
    fn default() -> Board {
        Board::startpos()
    }
}

pub(crate) const DEFAULT_CASTLE_ROOKS: [[Square; 2]; 2] = [[Square::H1, Square::A1], [Square::H8, Square::A8]];

/// The FEN of the standard starting position.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, STARTPOS_FEN};
/// assert_eq!(Board::from_fen(STARTPOS_FEN, CastlingMode::Standard).unwrap(), Board::default());
/// assert_eq!(Board::default().fen().to_string(), STARTPOS_FEN);
/// ```
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Board {
    /// The standard starting position.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// assert_eq!(Board::startpos().fen().to_string(), cutoff_board::STARTPOS_FEN);
    /// ```
    pub fn startpos() -> Board {
        match Board::from_fen(STARTPOS_FEN, CastlingMode::Standard) {
            Ok(b) => b,
            Err(_) => unreachable!("the start position is valid"),
        }
    }

    pub(crate) fn empty(chess960: bool) -> Board {
        Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            key: 0,
            pawn_key: 0,
            non_pawn_keys: [0; 2],
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            castle_rooks: DEFAULT_CASTLE_ROOKS,
            side_to_move: Color::White,
            castling: CastlingRights::empty(),
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            chess960,
        }
    }

    // ----- accessors -----

    /// The side to move.
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// let mut board = Board::default();
    /// assert_eq!(board.side_to_move(), Color::White);
    /// board.play(board.parse_uci("e2e4").unwrap());
    /// assert_eq!(board.side_to_move(), Color::Black);
    /// ```
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The piece on `sq`, if any.
    ///
    /// ```
    /// use cutoff_board::{Board, Piece, Square};
    /// let board = Board::default();
    /// assert_eq!(board.piece_on(Square::E1), Some(Piece::WhiteKing));
    /// assert_eq!(board.piece_on(Square::G8), Some(Piece::BlackKnight));
    /// assert_eq!(board.piece_on(Square::E4), None);
    /// ```
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq as usize]
    }

    /// The type of the piece on `sq`, if any.
    ///
    /// ```
    /// use cutoff_board::{Board, PieceType, Square};
    /// let board = Board::default();
    /// assert_eq!(board.kind_on(Square::D8), Some(PieceType::Queen));
    /// assert_eq!(board.kind_on(Square::D1), Some(PieceType::Queen));
    /// assert_eq!(board.kind_on(Square::D4), None);
    /// ```
    #[inline(always)]
    pub fn kind_on(&self, sq: Square) -> Option<PieceType> {
        self.mailbox[sq as usize].map(Piece::kind)
    }

    /// All pieces of type `kind`, both colours.
    ///
    /// ```
    /// use cutoff_board::{Board, PieceType, Square};
    /// let knights = Board::default().pieces(PieceType::Knight);
    /// assert_eq!(knights, Square::B1.bitboard() | Square::G1 | Square::B8 | Square::G8);
    /// ```
    #[inline(always)]
    pub fn pieces(&self, kind: PieceType) -> Bitboard {
        self.by_kind[kind as usize]
    }

    /// All pieces of `color`.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color, Rank};
    /// let board = Board::default();
    /// assert_eq!(board.colored(Color::White), Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Second));
    /// assert_eq!(board.colored(Color::Black).len(), 16);
    /// ```
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The pieces of `color` and type `kind`.
    ///
    /// ```
    /// use cutoff_board::{Board, Color, PieceType};
    /// assert_eq!(Board::default().colored_pieces(Color::White, PieceType::Pawn).len(), 8);
    /// ```
    #[inline(always)]
    pub fn colored_pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_kind[kind as usize] & self.by_color[color as usize]
    }

    /// Every occupied square.
    ///
    /// ```
    /// use cutoff_board::{Board, Square};
    /// let mut board = Board::default();
    /// assert_eq!(board.occupied().len(), 32);
    /// board.play(board.parse_uci("e2e4").unwrap());
    /// assert!(board.occupied().has(Square::E4) && !board.occupied().has(Square::E2));
    /// ```
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, Color, Square};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let mut board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// assert_eq!(board.king(Color::White), Square::E1);
    /// board.play(board.parse_san("O-O").unwrap());
    /// assert_eq!(board.king(Color::White), Square::G1);
    /// assert_eq!(board.king(Color::Black), Square::E8);
    /// ```
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        (self.by_kind[PieceType::King as usize] & self.by_color[color as usize]).first_unchecked()
    }

    /// The castling rights still held.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingRights, Color};
    /// let mut board = Board::default();
    /// assert_eq!(board.castling_rights(), CastlingRights::all());
    /// // 1.e4 e5 2.Ke2: White has given up castling.
    /// for mv in ["e2e4", "e7e5", "e1e2"] {
    ///     board.play(board.parse_uci(mv).unwrap());
    /// }
    /// assert_eq!(board.castling_rights(), CastlingRights::for_color(Color::Black));
    /// ```
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The rook that castles for `color` on `side`, while that right is held.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingSide, Color, Square};
    /// assert_eq!(Board::default().castling_rook(Color::White, CastlingSide::Queen), Some(Square::A1));
    /// ```
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        if self.castling.contains(CastlingRights::new(color, side)) {
            Some(self.castle_rooks[color as usize][side as usize])
        } else {
            None
        }
    }

    /// The en passant target square, set only when a pawn of the side to move stands
    /// next to the pawn that just moved two squares (so a capture may be possible).
    ///
    /// ```
    /// use cutoff_board::{Board, Square};
    /// // After 1.e4 no black pawn can take en passant, so no square is set.
    /// let mut board = Board::default();
    /// board.play(board.parse_uci("e2e4").unwrap());
    /// assert_eq!(board.en_passant(), None);
    /// // After 1.e4 d5 2.e5 f5 the e5 pawn may take on f6.
    /// for mv in ["d7d5", "e4e5", "f7f5"] {
    ///     board.play(board.parse_uci(mv).unwrap());
    /// }
    /// assert_eq!(board.en_passant(), Some(Square::F6));
    /// ```
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move (for the 50-move rule).
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let mut board = Board::default();
    /// for mv in ["g1f3", "g8f6"] {
    ///     board.play(board.parse_uci(mv).unwrap());
    /// }
    /// assert_eq!(board.halfmove_clock(), 2);
    /// board.play(board.parse_uci("e2e4").unwrap()); // a pawn move resets it
    /// assert_eq!(board.halfmove_clock(), 0);
    /// ```
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after Black's move.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let mut board = Board::default();
    /// board.play(board.parse_uci("e2e4").unwrap());
    /// assert_eq!(board.fullmove_number(), 1);
    /// board.play(board.parse_uci("e7e5").unwrap());
    /// assert_eq!(board.fullmove_number(), 2);
    /// ```
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// Whether this board follows Chess960 castling rules and notation.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    /// assert!(Board::from_fen(fen, CastlingMode::Chess960).unwrap().is_chess960());
    /// assert!(!Board::default().is_chess960());
    /// ```
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The castling rules and notation this board follows.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// assert_eq!(Board::default().castling_mode(), CastlingMode::Standard);
    /// let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    /// assert_eq!(Board::from_fen(fen, CastlingMode::Chess960).unwrap().castling_mode(), CastlingMode::Chess960);
    /// ```
    #[inline(always)]
    pub fn castling_mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
    }

    /// The Zobrist key of the position (pieces, side to move, castling rights, en passant file).
    ///
    /// ```
    /// use cutoff_board::Board;
    /// // 1.Nf3 Nf6 2.Nc3 and 1.Nc3 Nf6 2.Nf3 reach the same position: same key.
    /// let play = |moves: &[&str]| {
    ///     let mut board = Board::default();
    ///     for mv in moves {
    ///         board.play(board.parse_uci(mv).unwrap());
    ///     }
    ///     board
    /// };
    /// let a = play(&["g1f3", "g8f6", "b1c3"]);
    /// let b = play(&["b1c3", "g8f6", "g1f3"]);
    /// assert_eq!(a.key(), b.key());
    /// assert_ne!(a.key(), Board::default().key());
    /// // The side to move is part of the key.
    /// assert_ne!(a.key(), a.null_move().unwrap().key());
    /// ```
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// A Zobrist key of the pawns only, for pawn-structure caches.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let mut board = Board::default();
    /// let start = board.pawn_key();
    /// board.play(board.parse_uci("g1f3").unwrap());
    /// assert_eq!(board.pawn_key(), start); // a knight move leaves the pawns alone
    /// board.play(board.parse_uci("e7e5").unwrap());
    /// assert_ne!(board.pawn_key(), start);
    /// ```
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// A Zobrist key of `color`'s pieces other than pawns (its king included), for caches
    /// of what those pieces are worth.
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// let mut board = Board::default();
    /// let (white, black) = (board.non_pawn_key(Color::White), board.non_pawn_key(Color::Black));
    /// board.play(board.parse_uci("e2e4").unwrap());
    /// assert_eq!(board.non_pawn_key(Color::White), white); // a pawn move
    /// board.play(board.parse_uci("g8f6").unwrap());
    /// assert_ne!(board.non_pawn_key(Color::Black), black);
    /// assert_eq!(board.non_pawn_key(Color::White), white);
    /// ```
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color as usize]
    }

    /// The pieces giving check to the side to move.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, Square};
    /// // Fool's mate: 1.f3 e5 2.g4 Qh4#.
    /// let board = Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", CastlingMode::Standard).unwrap();
    /// assert_eq!(board.checkers(), Square::H4.bitboard());
    /// assert!(Board::default().checkers().is_empty());
    /// ```
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let board = Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", CastlingMode::Standard).unwrap();
    /// assert!(board.in_check());
    /// assert_eq!(board.legal_moves().len(), 0); // and mated
    /// assert!(!Board::default().in_check());
    /// ```
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// Whether `mv` (legal here, as for [`Board::play_unchecked`]) gives check, found without
    /// playing it: the moved piece (the promoted piece, the castled rook) attacks the enemy
    /// king from its new square, or a slider of the side to move sees the king through the
    /// square the move emptied (the from square, the pawn taken en passant, the castling
    /// king's square). Costs a few attack lookups; a search can decide to prune a move before
    /// it makes it.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let board = Board::from_fen("4k3/8/8/8/8/8/4B3/R3K2R w KQ - 0 1", CastlingMode::Standard).unwrap();
    /// let checks = |uci: &str| board.gives_check(board.parse_uci(uci).unwrap());
    /// assert!(checks("a1a8") && checks("e2b5")); // the moved piece attacks the king
    /// assert!(!checks("e2d3") && !checks("e1g1"));
    /// // The castled rook checks; a bishop that moves away uncovers a rook.
    /// let board = Board::from_fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1", CastlingMode::Standard).unwrap();
    /// assert!(board.gives_check(board.parse_uci("e1g1").unwrap()));
    /// let board = Board::from_fen("5k2/8/8/8/8/8/5B2/4KR2 w - - 0 1", CastlingMode::Standard).unwrap();
    /// assert!(board.gives_check(board.parse_uci("f2g3").unwrap()));
    /// // Every legal move agrees with playing it.
    /// for mv in board.legal_moves() {
    ///     let mut child = board;
    ///     child.play_unchecked(mv);
    ///     assert_eq!(board.gives_check(mv), child.in_check(), "{mv:?}");
    /// }
    /// ```
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move;
        let king = self.king(!us);
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.mailbox[from as usize] else {
            return false;
        };
        // The occupancy after the move, the square where a checking piece now stands, its kind,
        // and the side to move's pieces that stay where they are.
        let (occupied, lands, kind, stay) = if mv.is_castle() {
            let side = if to.file() > from.file() { CastlingSide::King } else { CastlingSide::Queen };
            let rook_to = side.rook_destination(us);
            let occupied = (self.occupied() - from - to) | side.king_destination(us) | rook_to;
            (occupied, rook_to, PieceType::Rook, self.colored(us) - from - to)
        } else {
            let mut occupied = (self.occupied() - from) | to;
            if mv.is_en_passant() {
                occupied -= Square::new(to.file(), from.rank());
            }
            (occupied, to, mv.promotion().unwrap_or(piece.kind()), self.colored(us) - from)
        };
        if kind != PieceType::King && attacks::piece(kind, us, lands, occupied).has(king) {
            return true;
        }
        let diagonal = stay & (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen));
        let straight = stay & (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen));
        // A discovered check needs one of our sliders on a line through the king and the
        // emptied square; most moves fail this one lookup (castling and en passant empty
        // two squares and take the full test).
        if !mv.is_castle() && !mv.is_en_passant() && !attacks::line(king, from).intersects(diagonal | straight) {
            return false;
        }
        attacks::bishop(king, occupied).intersects(diagonal) || attacks::rook(king, occupied).intersects(straight)
    }

    /// What [`Board::gives_check_with`] needs to tell checks with one or two bitboard tests a
    /// move: for each piece type the squares from which it attacks the enemy king, and the
    /// pieces of the side to move whose departure uncovers a check by one of its sliders.
    /// Worth computing when many moves of one position are tested (a move picker that keeps
    /// only the checks); for one move, [`Board::gives_check`] is cheaper.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let board = Board::from_fen("5k2/8/8/8/8/8/5B2/N3KR2 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let checks = board.check_squares();
    /// for mv in board.legal_moves() {
    ///     assert_eq!(board.gives_check_with(&checks, mv), board.gives_check(mv), "{mv:?}");
    /// }
    /// ```
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move;
        let king = self.king(!us);
        let occupied = self.occupied();
        let diagonal = attacks::bishop(king, occupied);
        let straight = attacks::rook(king, occupied);
        let mut squares = [Bitboard::EMPTY; 6];
        squares[PieceType::Pawn as usize] = attacks::pawn(!us, king);
        squares[PieceType::Knight as usize] = attacks::knight(king);
        squares[PieceType::Bishop as usize] = diagonal;
        squares[PieceType::Rook as usize] = straight;
        squares[PieceType::Queen as usize] = diagonal | straight;
        let ours = self.colored(us);
        let queens = self.pieces(PieceType::Queen);
        let snipers = (attacks::bishop(king, Bitboard::EMPTY) & (self.pieces(PieceType::Bishop) | queens) & ours)
            | (attacks::rook(king, Bitboard::EMPTY) & (self.pieces(PieceType::Rook) | queens) & ours);
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occupied;
            if between.len() == 1 && between.intersects(ours) {
                discoverers |= between;
            }
        }
        CheckSquares { squares, discoverers, king }
    }

    /// [`Board::gives_check`] with the position's [`CheckSquares`] computed beforehand: the
    /// same answer, for a quiet or capturing move with one or two bitboard tests (castling,
    /// en passant and promotions take the full test).
    #[inline]
    pub fn gives_check_with(&self, checks: &CheckSquares, mv: Move) -> bool {
        if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
            return self.gives_check(mv);
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.mailbox[from as usize] else {
            return false;
        };
        checks.squares[piece.kind() as usize].has(to)
            || (checks.discoverers.has(from) && !attacks::line(checks.king, from).has(to))
    }

    /// Whether the side to move can reach a position with Zobrist key `key` by moving one
    /// of its knights, bishops, rooks, queens or its king to an empty square: no capture, no
    /// pawn move, no change of castling rights or en passant square. With `key` the key of
    /// an earlier position of the game (with the other side to move), this is the test for an
    /// upcoming repetition. One XOR and at most two table reads (a cuckoo table of the 3,668
    /// such moves by key difference); the move is not checked for legality (the piece may be
    /// pinned, the king may walk into check), as a search's draw detection accepts.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let start = Board::default();
    /// let mut board = start;
    /// for uci in ["g1f3", "g8f6", "f3g1"] {
    ///     board.play_unchecked(board.parse_uci(uci).unwrap());
    /// }
    /// assert!(board.reaches_key(start.key())); // ...Ng8 repeats the start position
    /// let mut after_e4 = start;
    /// after_e4.play_unchecked(start.parse_uci("e2e4").unwrap());
    /// assert!(!board.reaches_key(after_e4.key()));
    /// ```
    #[inline]
    pub fn reaches_key(&self, key: u64) -> bool {
        let Some((a, b)) = crate::cuckoo::reversible_move(self.key ^ key) else {
            return false;
        };
        if attacks::between(a, b).intersects(self.occupied()) {
            return false;
        }
        // The keys differ by the piece standing on one of the two squares: it must be ours.
        let from = if self.occupied().has(a) { a } else { b };
        self.colored(self.side_to_move).has(from)
    }

    /// The pieces of the side to move that are pinned to their king.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode, Square};
    /// // 1.d3 e5 2.Nc3 Bb4: the knight is pinned to the king on e1.
    /// let board = Board::from_fen("rnbqk1nr/pppp1ppp/8/4p3/1b6/2NP4/PPP1PPPP/R1BQKBNR w KQkq - 2 3", CastlingMode::Standard).unwrap();
    /// assert_eq!(board.pinned(), Square::C3.bitboard());
    /// assert!(board.legal_moves().iter().all(|mv| mv.from() != Square::C3));
    /// ```
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Every piece of either colour that attacks `sq`, given the occupied squares `occupied`.
    ///
    /// ```
    /// use cutoff_board::{Board, Square};
    /// let board = Board::default();
    /// assert_eq!(board.attackers_to(Square::F3, board.occupied()).len(), 3); // e2, g2, g1
    /// ```
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let bq = self.by_kind[PieceType::Bishop as usize] | self.by_kind[PieceType::Queen as usize];
        let rq = self.by_kind[PieceType::Rook as usize] | self.by_kind[PieceType::Queen as usize];
        (attacks::pawn(Color::White, sq) & self.colored_pieces(Color::Black, PieceType::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.colored_pieces(Color::White, PieceType::Pawn))
            | (attacks::knight(sq) & self.by_kind[PieceType::Knight as usize])
            | (attacks::king(sq) & self.by_kind[PieceType::King as usize])
            | (attacks::bishop(sq, occupied) & bq)
            | (attacks::rook(sq, occupied) & rq)
    }

    /// Every square that a piece of `color` attacks (with the current occupancy), whatever
    /// stands on it: the threats against the other side, for move ordering.
    ///
    /// ```
    /// use cutoff_board::{Board, Color, Square};
    /// let board = Board::default();
    /// let black = board.attacks_by(Color::Black);
    /// assert_eq!(black.len(), 22); // ranks 6 and 7, b8, c8, d8, e8, f8, g8
    /// assert!(black.has(Square::F6) && !black.has(Square::E5));
    /// assert!(Square::ALL.iter().all(|&sq| black.has(sq) == board.is_attacked(sq, Color::Black)));
    /// ```
    #[inline]
    pub fn attacks_by(&self, color: Color) -> Bitboard {
        let own = self.by_color[color as usize];
        let occupied = self.occupied();
        let (west, east) = attacks::pawn_captures(color, self.by_kind[PieceType::Pawn as usize] & own);
        let mut attacked = west | east;
        for sq in self.by_kind[PieceType::Knight as usize] & own {
            attacked |= attacks::knight(sq);
        }
        for sq in (self.by_kind[PieceType::Bishop as usize] | self.by_kind[PieceType::Queen as usize]) & own {
            attacked |= attacks::bishop(sq, occupied);
        }
        for sq in (self.by_kind[PieceType::Rook as usize] | self.by_kind[PieceType::Queen as usize]) & own {
            attacked |= attacks::rook(sq, occupied);
        }
        for sq in self.by_kind[PieceType::King as usize] & own {
            attacked |= attacks::king(sq);
        }
        attacked
    }

    /// Whether any piece of `by` attacks `sq` (with the current occupancy).
    ///
    /// ```
    /// use cutoff_board::{Board, Color, Square};
    /// let board = Board::default();
    /// assert!(board.is_attacked(Square::E3, Color::White)); // by the d2 and f2 pawns
    /// assert!(!board.is_attacked(Square::E3, Color::Black));
    /// assert!(board.is_attacked(Square::F6, Color::Black));
    /// assert!(!board.is_attacked(Square::E4, Color::White));
    /// ```
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked_with(sq, by, self.occupied())
    }

    #[inline(always)]
    pub(crate) fn attacked_with(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[by as usize];
        let bq = (self.by_kind[PieceType::Bishop as usize] | self.by_kind[PieceType::Queen as usize]) & them;
        let rq = (self.by_kind[PieceType::Rook as usize] | self.by_kind[PieceType::Queen as usize]) & them;
        (attacks::knight(sq) & self.by_kind[PieceType::Knight as usize] & them).is_nonempty()
            || (attacks::pawn(!by, sq) & self.by_kind[PieceType::Pawn as usize] & them).is_nonempty()
            || (attacks::king(sq) & self.by_kind[PieceType::King as usize] & them).is_nonempty()
            || (attacks::bishop(sq, occupied) & bq).is_nonempty()
            || (attacks::rook(sq, occupied) & rq).is_nonempty()
    }

    /// Computes the Zobrist keys from scratch (the incremental keys must always equal these).
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let b = Board::default();
    /// assert_eq!(b.compute_keys(), (b.key(), b.pawn_key()));
    /// ```
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut key = 0;
        let mut pawn_key = 0;
        for sq in self.occupied() {
            if let Some(p) = self.mailbox[sq as usize] {
                key ^= zobrist::piece(p, sq);
                if p.kind() == PieceType::Pawn {
                    pawn_key ^= zobrist::piece(p, sq);
                }
            }
        }
        key ^= zobrist::castling(self.castling);
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep.file());
        }
        if self.side_to_move == Color::Black {
            key ^= zobrist::side();
        }
        (key, pawn_key)
    }

    // ----- draws -----

    /// Whether neither side can possibly mate: K v K, K+minor v K, and any number of
    /// bishops all on squares of one colour.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// assert!(Board::from_fen("8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1", CastlingMode::Standard).unwrap().is_insufficient_material());
    /// assert!(!Board::default().is_insufficient_material());
    /// ```
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.pieces(PieceType::Pawn) | self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen);
        if heavy.is_nonempty() {
            return false;
        }
        let knights = self.pieces(PieceType::Knight);
        let bishops = self.pieces(PieceType::Bishop);
        if (knights | bishops).len() <= 1 {
            return true;
        }
        knights.is_empty() && (bishops.is_subset(Bitboard::LIGHT) || bishops.is_subset(Bitboard::DARK))
    }

    /// Whether the 50-move rule allows a draw claim: at least 100 plies without capture or
    /// pawn move. A checkmate on the 100th ply still wins; callers check for mate first.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let mut board = Board::from_fen("8/8/8/4k3/8/8/3QK3/8 w - - 99 80", CastlingMode::Standard).unwrap();
    /// assert!(!board.is_fifty_move_draw());
    /// board.play(board.parse_uci("d2d3").unwrap()); // the 100th ply without capture or pawn move
    /// assert_eq!(board.halfmove_clock(), 100);
    /// assert!(board.is_fifty_move_draw());
    /// ```
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock >= 100
    }

    /// The same position with colours swapped and the board mirrored vertically
    /// (for evaluation symmetry tests). Castling rights and the en passant square follow.
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// let b = Board::default();
    /// let m = b.mirrored();
    /// assert_eq!(m.side_to_move(), Color::Black);
    /// assert_eq!(m.mirrored(), b);
    /// ```
    pub fn mirrored(&self) -> Board {
        let mut b = Board::empty(self.chess960);
        for sq in self.occupied() {
            if let Some(p) = self.mailbox[sq as usize] {
                b.put(Piece::new(!p.color(), p.kind()), sq.flip_rank());
            }
        }
        b.side_to_move = !self.side_to_move;
        b.key ^= if b.side_to_move == Color::Black { zobrist::side() } else { 0 };
        let mut rights = CastlingRights::empty();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                b.castle_rooks[!color as usize][side as usize] =
                    self.castle_rooks[color as usize][side as usize].flip_rank();
                if self.castling.contains(CastlingRights::new(color, side)) {
                    rights |= CastlingRights::new(!color, side);
                }
            }
        }
        b.set_castling(rights);
        if let Some(ep) = self.en_passant {
            b.en_passant = Some(ep.flip_rank());
            b.key ^= zobrist::en_passant(ep.file());
        }
        b.halfmove_clock = self.halfmove_clock;
        b.fullmove_number = self.fullmove_number;
        b.update_checks_and_pins();
        b
    }
}

/// An ASCII diagram, rank 8 at the top, followed by the FEN.
///
/// ```
/// use cutoff_board::Board;
/// let text = Board::default().to_string();
/// assert!(text.starts_with(" +---+"));
/// assert!(text.contains("| r | n | b | q | k | b | n | r | 8"));
/// ```
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            writeln!(f, " +---+---+---+---+---+---+---+---+")?;
            for file in File::ALL {
                let c = self.piece_on(Square::new(file, *rank)).map_or(' ', Piece::to_char);
                write!(f, " | {c}")?;
            }
            writeln!(f, " | {}", rank.to_char())?;
        }
        writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        write!(f, "Fen: {}", self.fen())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}
