//! History tables: butterfly, continuation and capture history, and countermoves.
//!
//! Every history table stores `i16` entries updated by one rule, [`gravity`], so each stays
//! within ±[`MAX_HISTORY`]. The tables differ only in how a move is turned into an index.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use cutoff_board::{Bitboard, Board, Color, Move, Piece, PieceType, Square};

/// The largest magnitude a history score reaches (the gravity update converges towards it).
///
/// ```
/// use cutoff_board::{Bitboard, Board, Color};
/// use cutoff_ordering::{ButterflyHistory, MAX_HISTORY};
/// let nf3 = Board::default().parse_uci("g1f3").unwrap();
/// let mut history = ButterflyHistory::new();
/// history.update(Color::White, nf3, Bitboard::EMPTY, 1_000_000); // clamped to MAX_HISTORY
/// assert_eq!(history.get(Color::White, nf3, Bitboard::EMPTY), MAX_HISTORY);
/// history.update(Color::White, nf3, Bitboard::EMPTY, MAX_HISTORY); // gravity: saturated, it moves no further
/// assert_eq!(history.get(Color::White, nf3, Bitboard::EMPTY), MAX_HISTORY);
/// for _ in 0..100 {
///     history.update(Color::White, nf3, Bitboard::EMPTY, -5000);
/// }
/// assert!(history.get(Color::White, nf3, Bitboard::EMPTY) >= -MAX_HISTORY);
/// ```
pub const MAX_HISTORY: i32 = 16_384;

/// The one update rule of every history table ("gravity"): `bonus`, clamped to
/// ±[`MAX_HISTORY`], moves the entry `h` by `bonus - h·|bonus| / MAX_HISTORY`. A bonus pulls
/// the entry towards ±`MAX_HISTORY` and never past it, and old information fades as new
/// arrives.
///
/// ```
/// use cutoff_ordering::{MAX_HISTORY, gravity};
/// let mut entry = 0i16;
/// gravity(&mut entry, 400);
/// assert_eq!(entry, 400);
/// gravity(&mut entry, 400); // 400 + 400 - 400 * 400 / 16384
/// assert_eq!(entry, 791);
/// for _ in 0..1000 {
///     gravity(&mut entry, -1_000_000);
/// }
/// assert_eq!(i32::from(entry), -MAX_HISTORY);
/// ```
#[inline(always)]
pub fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
    let h = i32::from(*entry);
    *entry = (h + bonus - h * bonus.abs() / MAX_HISTORY) as i16;
}

/// A moved piece and its target square: what continuation history is keyed by, for the move
/// being scored and for the moves that led to the position.
///
/// ```
/// use cutoff_board::{Board, Piece, Square};
/// use cutoff_ordering::PieceTo;
/// let board = Board::default();
/// let nf3 = board.parse_uci("g1f3").unwrap();
/// assert_eq!(PieceTo::of(&board, nf3), Some(PieceTo { piece: Piece::WhiteKnight, to: Square::F3 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceTo {
    /// The piece that moves (before any promotion).
    pub piece: Piece,
    /// Its target square (for castling, the rook's square: Cutoff's castling encoding).
    pub to: Square,
}

impl PieceTo {
    /// The piece and target of `mv` played in `board` (`None` if `from` is empty).
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::PieceTo;
    /// let board = Board::default();
    /// let e2e4 = board.parse_uci("e2e4").unwrap();
    /// assert_eq!(PieceTo::of(&board, e2e4).unwrap().to.to_string(), "e4");
    /// ```
    #[inline(always)]
    pub fn of(board: &Board, mv: Move) -> Option<PieceTo> {
        Some(PieceTo { piece: board.piece_on(mv.from())?, to: mv.to() })
    }

    #[inline(always)]
    fn index(self) -> usize {
        self.piece as usize * 64 + self.to as usize
    }
}

/// How far back the continuation histories look: a quiet move is scored against the moves
/// made 1, 2 and 4 plies before it (its opponent's last move, our own last move, and our
/// move before that), all in the one [`ContinuationHistory`] table.
///
/// ```
/// assert_eq!(cutoff_ordering::CONTINUATION_PLIES, [1, 2, 4]);
/// ```
pub const CONTINUATION_PLIES: [usize; 3] = [1, 2, 4];

/// The earlier moves of a node, one for each of [`CONTINUATION_PLIES`] (`None` before the
/// root, after a null move, or when not wanted).
pub type Continuations = [Option<PieceTo>; CONTINUATION_PLIES.len()];

/// Continuation history: how well a quiet move did right after a given earlier move (one, two
/// or more plies back), so that a reply is judged in the context of the move it answers.
///
/// Layout: `table[earlier piece][earlier to][piece][to]`, flattened, `i16` entries
/// (12 · 64 · 12 · 64 · 2 bytes = 1.1 MiB, on the heap). Updated with [`gravity`].
///
/// ```
/// use cutoff_board::{Board, Piece, Square};
/// use cutoff_ordering::{ContinuationHistory, PieceTo};
/// let mut board = Board::default();
/// let e4 = board.parse_uci("e2e4").unwrap();
/// let earlier = PieceTo::of(&board, e4).unwrap();
/// board.play(e4);
/// let c5 = PieceTo::of(&board, board.parse_uci("c7c5").unwrap()).unwrap();
/// let mut history = ContinuationHistory::new();
/// history.update(earlier, c5, 500);
/// assert_eq!(history.get(earlier, c5), 500);
/// assert_eq!(history.get(c5, earlier), 0);
/// ```
#[derive(Clone, Debug)]
pub struct ContinuationHistory {
    table: Vec<i16>,
}

impl Default for ContinuationHistory {
    fn default() -> ContinuationHistory {
        ContinuationHistory::new()
    }
}

impl ContinuationHistory {
    const SIZE: usize = 12 * 64 * 12 * 64;

    /// A table of zeros.
    ///
    /// ```
    /// use cutoff_board::{Piece, Square};
    /// use cutoff_ordering::{ContinuationHistory, PieceTo};
    /// let key = PieceTo { piece: Piece::WhiteQueen, to: Square::D4 };
    /// assert_eq!(ContinuationHistory::new().get(key, key), 0);
    /// ```
    pub fn new() -> ContinuationHistory {
        ContinuationHistory { table: vec![0; Self::SIZE] }
    }

    #[inline(always)]
    fn index(earlier: PieceTo, now: PieceTo) -> usize {
        earlier.index() * (12 * 64) + now.index()
    }

    /// The score of `now` played after `earlier`.
    ///
    /// ```
    /// use cutoff_board::{Piece, Square};
    /// use cutoff_ordering::{ContinuationHistory, PieceTo};
    /// let earlier = PieceTo { piece: Piece::WhitePawn, to: Square::E4 };
    /// let now = PieceTo { piece: Piece::BlackPawn, to: Square::C5 };
    /// let mut history = ContinuationHistory::new();
    /// history.update(earlier, now, -300);
    /// assert_eq!(history.get(earlier, now), -300);
    /// ```
    #[inline(always)]
    pub fn get(&self, earlier: PieceTo, now: PieceTo) -> i32 {
        i32::from(self.table[Self::index(earlier, now)])
    }

    /// Adds `bonus` to the entry of `now` after `earlier`, with [`gravity`].
    ///
    /// ```
    /// use cutoff_board::{Piece, Square};
    /// use cutoff_ordering::{ContinuationHistory, MAX_HISTORY, PieceTo};
    /// let earlier = PieceTo { piece: Piece::WhiteKnight, to: Square::F3 };
    /// let now = PieceTo { piece: Piece::BlackKnight, to: Square::C6 };
    /// let mut history = ContinuationHistory::new();
    /// history.update(earlier, now, 2 * MAX_HISTORY);
    /// assert_eq!(history.get(earlier, now), MAX_HISTORY);
    /// ```
    #[inline(always)]
    pub fn update(&mut self, earlier: PieceTo, now: PieceTo, bonus: i32) {
        gravity(&mut self.table[Self::index(earlier, now)], bonus);
    }

    /// Resets every entry to zero.
    ///
    /// ```
    /// use cutoff_board::{Piece, Square};
    /// use cutoff_ordering::{ContinuationHistory, PieceTo};
    /// let key = PieceTo { piece: Piece::WhiteRook, to: Square::A8 };
    /// let mut history = ContinuationHistory::new();
    /// history.update(key, key, 100);
    /// history.clear();
    /// assert_eq!(history.get(key, key), 0);
    /// ```
    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

/// Capture history: how well a capture (by moving piece, target square and captured piece
/// type) did, added to MVV-LVA when noisy moves are ordered.
///
/// Layout: `table[piece][to][captured type]`, `i16` entries (9 KiB). Promotions without
/// capture count as capturing a pawn (the index needs some type; such moves are rare and
/// always tried early). Updated with [`gravity`].
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// use cutoff_ordering::CaptureHistory;
/// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// let exd5 = board.parse_uci("e4d5").unwrap();
/// let mut history = CaptureHistory::new();
/// history.update(&board, exd5, 700);
/// assert_eq!(history.get(&board, exd5), 700);
/// ```
#[derive(Clone, Debug)]
pub struct CaptureHistory {
    table: [[[i16; 6]; 64]; 12],
}

impl Default for CaptureHistory {
    fn default() -> CaptureHistory {
        CaptureHistory::new()
    }
}

impl CaptureHistory {
    /// A table of zeros.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::CaptureHistory;
    /// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// assert_eq!(CaptureHistory::new().get(&board, board.parse_uci("e4d5").unwrap()), 0);
    /// ```
    pub fn new() -> CaptureHistory {
        CaptureHistory { table: [[[0; 6]; 64]; 12] }
    }

    /// The index `[piece][to][captured]` of `mv` in `board`.
    #[inline(always)]
    fn index(board: &Board, mv: Move) -> Option<(usize, usize, usize)> {
        let piece = board.piece_on(mv.from())?;
        let captured = if mv.is_en_passant() { None } else { board.kind_on(mv.to()) };
        Some((piece as usize, mv.to() as usize, captured.unwrap_or(PieceType::Pawn) as usize))
    }

    /// The score of the noisy move `mv` in `board` (0 for a move whose `from` is empty).
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::CaptureHistory;
    /// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let mut history = CaptureHistory::new();
    /// history.update(&board, board.parse_uci("e4d5").unwrap(), -250);
    /// assert_eq!(history.get(&board, board.parse_uci("e4d5").unwrap()), -250);
    /// ```
    #[inline(always)]
    pub fn get(&self, board: &Board, mv: Move) -> i32 {
        Self::index(board, mv).map_or(0, |(piece, to, captured)| i32::from(self.table[piece][to][captured]))
    }

    /// Adds `bonus` to the entry of `mv` in `board`, with [`gravity`].
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{CaptureHistory, MAX_HISTORY};
    /// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let exd5 = board.parse_uci("e4d5").unwrap();
    /// let mut history = CaptureHistory::new();
    /// history.update(&board, exd5, -3 * MAX_HISTORY);
    /// assert_eq!(history.get(&board, exd5), -MAX_HISTORY);
    /// ```
    #[inline(always)]
    pub fn update(&mut self, board: &Board, mv: Move, bonus: i32) {
        if let Some((piece, to, captured)) = Self::index(board, mv) {
            gravity(&mut self.table[piece][to][captured], bonus);
        }
    }

    /// Resets every entry to zero.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::CaptureHistory;
    /// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let exd5 = board.parse_uci("e4d5").unwrap();
    /// let mut history = CaptureHistory::new();
    /// history.update(&board, exd5, 100);
    /// history.clear();
    /// assert_eq!(history.get(&board, exd5), 0);
    /// ```
    pub fn clear(&mut self) {
        *self = CaptureHistory::new();
    }
}

/// Butterfly history: how often a quiet move (by colour, from, to) caused a cutoff, minus how
/// often it was tried without one, kept apart by whether the opponent attacked the move's
/// from and to squares (a move out of an attack, or into one, is a different kind of move).
///
/// Layout: `table[color][from attacked][to attacked][from][to]`, `i16` entries (64 KiB).
/// `threats` is the set of squares the opponent attacks (see
/// [`Board::attacks_by`](cutoff_board::Board::attacks_by)); pass
/// [`Bitboard::EMPTY`](cutoff_board::Bitboard::EMPTY) for a table keyed by colour, from and
/// to alone. Updates use "gravity": a bonus `b` moves an entry `h` by `b - h·|b| /
/// MAX_HISTORY`, so entries stay within ±[`MAX_HISTORY`] and old information fades as new
/// arrives.
///
/// ```
/// use cutoff_board::{Bitboard, Board, Color};
/// use cutoff_ordering::{ButterflyHistory, MAX_HISTORY};
/// let b = Board::default();
/// let e4 = b.parse_uci("e2e4").unwrap();
/// let none = Bitboard::EMPTY;
/// let mut h = ButterflyHistory::new();
/// h.update(Color::White, e4, none, 400);
/// assert_eq!(h.get(Color::White, e4, none), 400);
/// for _ in 0..1000 { h.update(Color::White, e4, none, 2000); }
/// assert!(h.get(Color::White, e4, none) <= MAX_HISTORY);
/// assert_eq!(h.get(Color::Black, e4, none), 0);
/// // The same move into an attacked square has its own entry.
/// assert_eq!(h.get(Color::White, e4, e4.to().bitboard()), 0);
/// ```
#[derive(Clone, Debug)]
pub struct ButterflyHistory {
    table: [[[[[i16; 64]; 64]; 2]; 2]; 2],
}

impl Default for ButterflyHistory {
    fn default() -> ButterflyHistory {
        ButterflyHistory::new()
    }
}

impl ButterflyHistory {
    /// A table of zeros.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color};
    /// use cutoff_ordering::ButterflyHistory;
    /// let board = Board::default();
    /// let history = ButterflyHistory::new();
    /// assert!(board.legal_moves().iter().all(|&mv| history.get(Color::White, mv, Bitboard::EMPTY) == 0));
    /// ```
    pub fn new() -> ButterflyHistory {
        ButterflyHistory { table: [[[[[0; 64]; 64]; 2]; 2]; 2] }
    }

    #[inline(always)]
    fn entry(&mut self, color: Color, mv: Move, threats: Bitboard) -> &mut i16 {
        let (from, to) = (mv.from(), mv.to());
        &mut self.table[color as usize][usize::from(threats.has(from))][usize::from(threats.has(to))][from as usize]
            [to as usize]
    }

    /// The score of `mv` played by `color` while the opponent attacks `threats`.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color, Move, MoveKind, Square};
    /// use cutoff_ordering::ButterflyHistory;
    /// let mut history = ButterflyHistory::new();
    /// let nf3 = Board::default().parse_uci("g1f3").unwrap();
    /// let none = Bitboard::EMPTY;
    /// history.update(Color::White, nf3, none, 300);
    /// assert_eq!(history.get(Color::White, nf3, none), 300);
    /// assert_eq!(history.get(Color::Black, nf3, none), 0); // per colour
    /// // Entries are keyed by from and to squares only: a capture g1xf3 shares the slot.
    /// assert_eq!(history.get(Color::White, Move::new(Square::G1, Square::F3, MoveKind::Capture), none), 300);
    /// // Threats elsewhere on the board do not matter; on g1 or f3 they do.
    /// assert_eq!(history.get(Color::White, nf3, Square::E4.bitboard()), 300);
    /// assert_eq!(history.get(Color::White, nf3, Square::G1.bitboard()), 0);
    /// ```
    #[inline(always)]
    pub fn get(&self, color: Color, mv: Move, threats: Bitboard) -> i32 {
        let (from, to) = (mv.from(), mv.to());
        i32::from(
            self.table[color as usize][usize::from(threats.has(from))][usize::from(threats.has(to))][from as usize]
                [to as usize],
        )
    }

    /// Adds `bonus` (negative for a malus) with gravity to the entry of `mv` by `color` while
    /// the opponent attacks `threats`; `bonus` is clamped to ±[`MAX_HISTORY`].
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color};
    /// use cutoff_ordering::ButterflyHistory;
    /// let e4 = Board::default().parse_uci("e2e4").unwrap();
    /// let none = Bitboard::EMPTY;
    /// let mut history = ButterflyHistory::new();
    /// history.update(Color::White, e4, none, 400); // 0 + 400 - 0 * 400 / 16384
    /// assert_eq!(history.get(Color::White, e4, none), 400);
    /// history.update(Color::White, e4, none, 400); // 400 + 400 - 400 * 400 / 16384
    /// assert_eq!(history.get(Color::White, e4, none), 791);
    /// history.update(Color::White, e4, none, -1000); // 791 - 1000 - 791 * 1000 / 16384
    /// assert_eq!(history.get(Color::White, e4, none), -257);
    /// ```
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, threats: Bitboard, bonus: i32) {
        gravity(self.entry(color, mv, threats), bonus);
    }

    /// Resets every entry to zero.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color};
    /// use cutoff_ordering::ButterflyHistory;
    /// let e4 = Board::default().parse_uci("e2e4").unwrap();
    /// let mut history = ButterflyHistory::new();
    /// history.update(Color::White, e4, Bitboard::EMPTY, 1000);
    /// history.clear();
    /// assert_eq!(history.get(Color::White, e4, Bitboard::EMPTY), 0);
    /// ```
    pub fn clear(&mut self) {
        *self = ButterflyHistory::new();
    }
}

/// Countermoves: the quiet move that last refuted a given previous move.
///
/// Layout: `table[piece][to]`, keyed by the piece that made the previous move and its target
/// square (12 × 64 entries of `Option<Move>`).
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_ordering::CounterMoves;
/// let mut b = Board::default();
/// let e4 = b.parse_uci("e2e4").unwrap();
/// b.play(e4);
/// let reply = b.parse_uci("c7c5").unwrap();
/// let mut cm = CounterMoves::new();
/// cm.set(&b, Some(e4), reply);
/// assert_eq!(cm.get(&b, Some(e4)), Some(reply));
/// assert_eq!(cm.get(&b, None), None);
/// ```
#[derive(Clone, Debug)]
pub struct CounterMoves {
    table: [[Option<Move>; 64]; 12],
}

impl Default for CounterMoves {
    fn default() -> CounterMoves {
        CounterMoves::new()
    }
}

impl CounterMoves {
    /// An empty table.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::CounterMoves;
    /// let mut board = Board::default();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// board.play(e4);
    /// assert_eq!(CounterMoves::new().get(&board, Some(e4)), None);
    /// ```
    pub fn new() -> CounterMoves {
        CounterMoves { table: [[None; 64]; 12] }
    }

    /// The piece that made `prev` (which led to `board`), found on its target square.
    #[inline(always)]
    fn mover(board: &Board, prev: Move) -> Option<Piece> {
        if prev.is_castle() { None } else { board.piece_on(prev.to()) }
    }

    /// The countermove to `prev`, the move that led to `board`.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::CounterMoves;
    /// let mut board = Board::default();
    /// let mut counter = CounterMoves::new();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// board.play(e4);
    /// let c5 = board.parse_uci("c7c5").unwrap();
    /// counter.set(&board, Some(e4), c5);
    /// assert_eq!(counter.get(&board, Some(e4)), Some(c5));
    /// assert_eq!(counter.get(&board, None), None); // at the root there is no previous move
    /// // Keyed by the piece that moved and its target: a white pawn reaching e4 from e3 shares the slot.
    /// let mut other = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard).unwrap();
    /// let e3e4 = other.parse_uci("e3e4").unwrap();
    /// other.play(e3e4);
    /// assert_eq!(counter.get(&other, Some(e3e4)), Some(c5));
    /// ```
    #[inline]
    pub fn get(&self, board: &Board, prev: Option<Move>) -> Option<Move> {
        let prev = prev?;
        let piece = Self::mover(board, prev)?;
        self.table[piece as usize][prev.to() as usize]
    }

    /// Records `mv` as the countermove to `prev` (the move that led to `board`).
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::CounterMoves;
    /// // Kiwipete after 1.O-O: castling moves get no countermove.
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let mut board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let castle = board.parse_san("O-O").unwrap();
    /// board.play(castle);
    /// let reply = board.parse_san("O-O-O").unwrap();
    /// let mut counter = CounterMoves::new();
    /// counter.set(&board, Some(castle), reply);
    /// assert_eq!(counter.get(&board, Some(castle)), None);
    /// ```
    #[inline]
    pub fn set(&mut self, board: &Board, prev: Option<Move>, mv: Move) {
        if let Some(prev) = prev
            && let Some(piece) = Self::mover(board, prev)
        {
            self.table[piece as usize][prev.to() as usize] = Some(mv);
        }
    }

    /// Forgets everything.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::CounterMoves;
    /// let mut board = Board::default();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// board.play(e4);
    /// let mut counter = CounterMoves::new();
    /// counter.set(&board, Some(e4), board.parse_uci("e7e5").unwrap());
    /// counter.clear();
    /// assert_eq!(counter.get(&board, Some(e4)), None);
    /// ```
    pub fn clear(&mut self) {
        *self = CounterMoves::new();
    }
}

/// The history tables the picker reads, owned per search thread.
///
/// ```
/// use cutoff_board::{Bitboard, Board, Color};
/// use cutoff_ordering::Histories;
/// let mut board = Board::default();
/// let mut tables = Histories::boxed();
/// let e4 = board.parse_uci("e2e4").unwrap();
/// tables.butterfly.update(Color::White, e4, Bitboard::EMPTY, 500);
/// board.play(e4);
/// let e5 = board.parse_uci("e7e5").unwrap();
/// tables.counter.set(&board, Some(e4), e5);
/// assert_eq!(tables.butterfly.get(Color::White, e4, Bitboard::EMPTY), 500);
/// assert_eq!(tables.counter.get(&board, Some(e4)), Some(e5));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Histories {
    /// Butterfly history for quiet moves.
    pub butterfly: ButterflyHistory,
    /// Continuation history for quiet moves, read [`CONTINUATION_PLIES`] back.
    pub continuation: ContinuationHistory,
    /// Capture history for noisy moves.
    pub capture: CaptureHistory,
    /// Countermoves.
    pub counter: CounterMoves,
}

impl Histories {
    /// Empty tables on the heap (about 1.3 MiB, most of it continuation history).
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color};
    /// use cutoff_ordering::Histories;
    /// let tables = Histories::boxed();
    /// let board = Board::default();
    /// assert!(board.legal_moves().iter().all(|&mv| tables.butterfly.get(Color::White, mv, Bitboard::EMPTY) == 0));
    /// ```
    pub fn boxed() -> Box<Histories> {
        Box::default()
    }

    /// The history score of the quiet move `mv` in `board`: its butterfly entry (for the
    /// squares `threats` the opponent attacks) and its continuation entries after each of the
    /// earlier moves `continuations`. The one place a quiet move is
    /// scored: the picker orders quiet moves by it, and a search reduces and prunes by it.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board};
    /// use cutoff_ordering::{CONTINUATION_PLIES, Histories, PieceTo};
    /// let mut board = Board::default();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// let earlier = PieceTo::of(&board, e4);
    /// board.play(e4);
    /// let c5 = board.parse_uci("c7c5").unwrap();
    /// let threats = board.attacks_by(!board.side_to_move());
    /// let mut tables = Histories::boxed();
    /// let context = [earlier, None, None];
    /// tables.update_quiet(&board, c5, &context, threats, 500);
    /// // The butterfly entry and one continuation entry: 500 each.
    /// assert_eq!(tables.quiet_score(&board, c5, &context, threats), 1000);
    /// assert_eq!(tables.quiet_score(&board, c5, &[None; CONTINUATION_PLIES.len()], threats), 500);
    /// ```
    #[inline(always)]
    pub fn quiet_score(&self, board: &Board, mv: Move, continuations: &Continuations, threats: Bitboard) -> i32 {
        let mut score = self.butterfly.get(board.side_to_move(), mv, threats);
        if let Some(now) = PieceTo::of(board, mv) {
            for earlier in continuations.iter().flatten() {
                score += self.continuation.get(*earlier, now);
            }
        }
        score
    }

    /// Teaches the quiet-move tables that `mv` in `board` did well (`bonus > 0`: it caused a
    /// cutoff) or badly (`bonus < 0`): the entries [`Histories::quiet_score`] reads, each with
    /// [`gravity`]; the continuation entry of the move 4 plies back learns at half the rate.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board};
    /// use cutoff_ordering::{Histories, PieceTo};
    /// let board = Board::default();
    /// let nf3 = board.parse_uci("g1f3").unwrap();
    /// let mut tables = Histories::boxed();
    /// let none = [None; 3];
    /// tables.update_quiet(&board, nf3, &none, Bitboard::EMPTY, -300);
    /// assert_eq!(tables.quiet_score(&board, nf3, &none, Bitboard::EMPTY), -300);
    /// ```
    #[inline]
    pub fn update_quiet(
        &mut self,
        board: &Board,
        mv: Move,
        continuations: &Continuations,
        threats: Bitboard,
        bonus: i32,
    ) {
        self.butterfly.update(board.side_to_move(), mv, threats, bonus);
        if let Some(now) = PieceTo::of(board, mv) {
            for (&plies, earlier) in CONTINUATION_PLIES.iter().zip(continuations) {
                if let Some(earlier) = *earlier {
                    self.continuation.update(earlier, now, if plies >= 4 { bonus / 2 } else { bonus });
                }
            }
        }
    }

    /// Resets every table.
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board, Color};
    /// use cutoff_ordering::Histories;
    /// let mut board = Board::default();
    /// let mut tables = Histories::boxed();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// tables.butterfly.update(Color::White, e4, Bitboard::EMPTY, 500);
    /// board.play(e4);
    /// tables.counter.set(&board, Some(e4), board.parse_uci("c7c5").unwrap());
    /// tables.clear();
    /// assert_eq!(tables.butterfly.get(Color::White, e4, Bitboard::EMPTY), 0);
    /// assert_eq!(tables.counter.get(&board, Some(e4)), None);
    /// ```
    pub fn clear(&mut self) {
        self.butterfly.clear();
        self.continuation.clear();
        self.capture.clear();
        self.counter.clear();
    }
}
