//! History tables: butterfly, continuation and capture history, and countermoves.
//!
//! Every history table is one generic type, [`History`]: `i16` entries, one per index of its
//! [`HistoryIndex`], each updated by the one rule [`gravity`] so that it stays within
//! ±[`HistoryIndex::BOUND`]. The tables differ only in how a move (with its context) is turned
//! into an index: a new table is a `HistoryIndex` implementation, a field of [`Histories`],
//! and the lines that read and write it.

use alloc::boxed::Box;
use alloc::vec;
use core::fmt;
use core::marker::PhantomData;

use cutoff_board::{Bitboard, Board, Color, Move, Piece, PieceType, Square};

/// The largest magnitude a history score reaches (the bound of every table here; see
/// [`gravity`]).
///
/// ```
/// use cutoff_board::{Board, Color, Bitboard};
/// use cutoff_ordering::{ButterflyHistory, MAX_HISTORY};
/// let nf3 = Board::default().parse_uci("g1f3").unwrap();
/// let key = (Color::White, nf3, Bitboard::EMPTY);
/// let mut history = ButterflyHistory::new();
/// history.update(key, 1_000_000); // clamped to MAX_HISTORY
/// assert_eq!(history.get(key), MAX_HISTORY);
/// ```
pub const MAX_HISTORY: i32 = 16_384;

/// The one update rule of every history table ("gravity"), for tables bounded by
/// [`MAX_HISTORY`]: `bonus`, clamped to ±`MAX_HISTORY`, moves the entry `h` by
/// `bonus - h·|bonus| / MAX_HISTORY`. A bonus pulls the entry towards ±`MAX_HISTORY` and never
/// past it (a saturated entry moves no further), and old information fades as new arrives.
///
/// ```
/// use cutoff_ordering::{MAX_HISTORY, gravity};
/// let mut entry = 0i16;
/// gravity(&mut entry, 400); // 0 + 400 - 0 * 400 / 16384
/// assert_eq!(entry, 400);
/// gravity(&mut entry, 400); // 400 + 400 - 400 * 400 / 16384
/// assert_eq!(entry, 791);
/// gravity(&mut entry, -1000); // 791 - 1000 - 791 * 1000 / 16384
/// assert_eq!(entry, -257);
/// for _ in 0..1000 {
///     gravity(&mut entry, -1_000_000);
/// }
/// assert_eq!(i32::from(entry), -MAX_HISTORY);
/// gravity(&mut entry, -MAX_HISTORY); // saturated: it moves no further
/// assert_eq!(i32::from(entry), -MAX_HISTORY);
/// ```
#[inline(always)]
pub fn gravity(entry: &mut i16, bonus: i32) {
    bounded_gravity(entry, bonus, MAX_HISTORY);
}

/// [`gravity`] within ±`bound`.
#[inline(always)]
fn bounded_gravity(entry: &mut i16, bonus: i32, bound: i32) {
    let bonus = bonus.clamp(-bound, bound);
    let h = i32::from(*entry);
    *entry = (h + bonus - h * bonus.abs() / bound) as i16;
}

/// What makes a [`History`] table: what its entries are looked up by, how many there are, how
/// a key becomes an index, and the bound of the entries.
///
/// A new table implements this trait on a marker type, `pub type NewHistory =
/// History<NewIndex>`, and gets `new`, `get`, `update` and `clear` from [`History`]:
///
/// ```
/// use cutoff_board::{Move, Square};
/// use cutoff_ordering::{History, HistoryIndex};
/// /// By target square alone.
/// struct ToIndex;
/// impl HistoryIndex for ToIndex {
///     type Key<'a> = Move;
///     const SIZE: usize = 64;
///     fn index(mv: Move) -> Option<usize> {
///         Some(mv.to() as usize)
///     }
/// }
/// let mut history = History::<ToIndex>::new();
/// let mv = Move::new(Square::G1, Square::F3, cutoff_board::MoveKind::Quiet);
/// history.update(mv, 300);
/// assert_eq!(history.get(Move::new(Square::E1, Square::F3, cutoff_board::MoveKind::Quiet)), 300);
/// ```
pub trait HistoryIndex {
    /// What an entry is looked up by: a move with the context it is judged in.
    type Key<'a>;
    /// The number of entries.
    const SIZE: usize;
    /// The largest magnitude an entry reaches: [`gravity`]'s bound.
    const BOUND: i32 = MAX_HISTORY;
    /// The entry of `key` (below [`HistoryIndex::SIZE`]), or `None` for a key without one,
    /// which then reads 0 and learns nothing.
    fn index(key: Self::Key<'_>) -> Option<usize>;
}

/// A history table: [`HistoryIndex::SIZE`] `i16` entries on the heap, read by
/// [`History::get`] and moved by [`History::update`] with [`gravity`] within
/// ±[`HistoryIndex::BOUND`].
///
/// ```
/// use cutoff_board::{Bitboard, Board, Color};
/// use cutoff_ordering::{ButterflyHistory, MAX_HISTORY};
/// let e4 = Board::default().parse_uci("e2e4").unwrap();
/// let key = (Color::White, e4, Bitboard::EMPTY);
/// let mut history = ButterflyHistory::new();
/// assert_eq!(history.get(key), 0);
/// history.update(key, 400);
/// assert_eq!(history.get(key), 400);
/// history.update(key, 3 * MAX_HISTORY);
/// assert_eq!(history.get(key), MAX_HISTORY);
/// history.clear();
/// assert_eq!(history.get(key), 0);
/// ```
pub struct History<I: HistoryIndex> {
    table: Box<[i16]>,
    index: PhantomData<fn() -> I>,
}

impl<I: HistoryIndex> History<I> {
    /// A table of zeros.
    pub fn new() -> History<I> {
        History { table: vec![0; I::SIZE].into_boxed_slice(), index: PhantomData }
    }

    /// The entry of `key` (0 for a key without one).
    #[inline(always)]
    pub fn get(&self, key: I::Key<'_>) -> i32 {
        I::index(key).map_or(0, |i| i32::from(self.table[i]))
    }

    /// Moves the entry of `key` by `bonus` (negative for a malus) with [`gravity`].
    #[inline(always)]
    pub fn update(&mut self, key: I::Key<'_>, bonus: i32) {
        if let Some(i) = I::index(key) {
            bounded_gravity(&mut self.table[i], bonus, I::BOUND);
        }
    }

    /// Resets every entry to zero.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

impl<I: HistoryIndex> Default for History<I> {
    fn default() -> History<I> {
        History::new()
    }
}

impl<I: HistoryIndex> Clone for History<I> {
    fn clone(&self) -> History<I> {
        History { table: self.table.clone(), index: PhantomData }
    }
}

impl<I: HistoryIndex> fmt::Debug for History<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let filled = self.table.iter().filter(|&&e| e != 0).count();
        write!(f, "History {{ {} entries, {filled} non-zero }}", self.table.len())
    }
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

/// Butterfly history's index: how often a quiet move (by colour, from, to) caused a cutoff,
/// minus how often it was tried without one, kept apart by whether the opponent attacked the
/// move's from and to squares (a move out of an attack, or into one, is a different kind of
/// move).
///
/// Key: `(colour, move, threats)`, `threats` the squares the opponent attacks (see
/// [`Board::attacks_by`]; [`Bitboard::EMPTY`] for a table keyed by colour, from and to
/// alone). Layout `[colour][from attacked][to attacked][from][to]` (64 KiB).
///
/// ```
/// use cutoff_board::{Bitboard, Board, Color, Move, MoveKind, Square};
/// use cutoff_ordering::ButterflyHistory;
/// let nf3 = Board::default().parse_uci("g1f3").unwrap();
/// let none = Bitboard::EMPTY;
/// let mut history = ButterflyHistory::new();
/// history.update((Color::White, nf3, none), 300);
/// assert_eq!(history.get((Color::Black, nf3, none)), 0); // per colour
/// // Keyed by from and to squares only: a capture g1xf3 shares the entry.
/// assert_eq!(history.get((Color::White, Move::new(Square::G1, Square::F3, MoveKind::Capture), none)), 300);
/// // Threats elsewhere on the board do not matter; on g1 or f3 they do.
/// assert_eq!(history.get((Color::White, nf3, Square::E4.bitboard())), 300);
/// assert_eq!(history.get((Color::White, nf3, Square::G1.bitboard())), 0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ButterflyIndex;

impl HistoryIndex for ButterflyIndex {
    type Key<'a> = (Color, Move, Bitboard);
    const SIZE: usize = 2 * 2 * 2 * 64 * 64;

    #[inline(always)]
    fn index((color, mv, threats): (Color, Move, Bitboard)) -> Option<usize> {
        let (from, to) = (mv.from(), mv.to());
        let attacked = (color as usize * 2 + usize::from(threats.has(from))) * 2 + usize::from(threats.has(to));
        Some((attacked * 64 + from as usize) * 64 + to as usize)
    }
}

/// Butterfly history, for quiet moves: see [`ButterflyIndex`].
pub type ButterflyHistory = History<ButterflyIndex>;

/// Continuation history's index: how well a quiet move did right after a given earlier move
/// (one, two or more plies back, [`CONTINUATION_PLIES`]), so that a reply is judged in the
/// context of the move it answers.
///
/// Key: `(earlier, now)`. Layout `[earlier piece][earlier to][piece][to]` (1.1 MiB).
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_ordering::{ContinuationHistory, PieceTo};
/// let mut board = Board::default();
/// let e4 = board.parse_uci("e2e4").unwrap();
/// let earlier = PieceTo::of(&board, e4).unwrap();
/// board.play(e4);
/// let c5 = PieceTo::of(&board, board.parse_uci("c7c5").unwrap()).unwrap();
/// let mut history = ContinuationHistory::new();
/// history.update((earlier, c5), 500);
/// assert_eq!(history.get((earlier, c5)), 500);
/// assert_eq!(history.get((c5, earlier)), 0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ContinuationIndex;

impl HistoryIndex for ContinuationIndex {
    type Key<'a> = (PieceTo, PieceTo);
    const SIZE: usize = 12 * 64 * 12 * 64;

    #[inline(always)]
    fn index((earlier, now): (PieceTo, PieceTo)) -> Option<usize> {
        Some(earlier.index() * (12 * 64) + now.index())
    }
}

/// Continuation history, for quiet moves: see [`ContinuationIndex`].
pub type ContinuationHistory = History<ContinuationIndex>;

/// Capture history's index: how well a capture (by moving piece, target square and captured
/// piece type) did, added to MVV-LVA when noisy moves are ordered.
///
/// Key: `(board, move)`. Layout `[piece][to][captured type]` (9 KiB). Promotions without
/// capture count as capturing a pawn (the index needs some type; such moves are rare and
/// always tried early); a move whose `from` is empty has no entry.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, Move, MoveKind, Square};
/// use cutoff_ordering::CaptureHistory;
/// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// let exd5 = board.parse_uci("e4d5").unwrap();
/// let mut history = CaptureHistory::new();
/// history.update((&board, exd5), 700);
/// assert_eq!(history.get((&board, exd5)), 700);
/// let from_empty = Move::new(Square::A3, Square::D5, MoveKind::Capture);
/// assert_eq!(history.get((&board, from_empty)), 0); // nothing on a3: no entry
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CaptureIndex;

impl HistoryIndex for CaptureIndex {
    type Key<'a> = (&'a Board, Move);
    const SIZE: usize = 12 * 64 * 6;

    #[inline(always)]
    fn index((board, mv): (&Board, Move)) -> Option<usize> {
        let piece = board.piece_on(mv.from())?;
        let captured = if mv.is_en_passant() { None } else { board.kind_on(mv.to()) };
        Some((piece as usize * 64 + mv.to() as usize) * 6 + captured.unwrap_or(PieceType::Pawn) as usize)
    }
}

/// Capture history, for noisy moves: see [`CaptureIndex`].
pub type CaptureHistory = History<CaptureIndex>;

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
/// A quiet move's history is read in one place, [`Histories::quiet_score`], and learnt in one,
/// [`Histories::update_quiet`]; a noisy move's is [`Histories::capture`].
///
/// ```
/// use cutoff_board::{Bitboard, Board, Color};
/// use cutoff_ordering::Histories;
/// let mut board = Board::default();
/// let mut tables = Histories::boxed();
/// let e4 = board.parse_uci("e2e4").unwrap();
/// tables.butterfly.update((Color::White, e4, Bitboard::EMPTY), 500);
/// board.play(e4);
/// let e5 = board.parse_uci("e7e5").unwrap();
/// tables.counter.set(&board, Some(e4), e5);
/// assert_eq!(tables.butterfly.get((Color::White, e4, Bitboard::EMPTY)), 500);
/// assert_eq!(tables.counter.get(&board, Some(e4)), Some(e5));
/// tables.clear();
/// assert_eq!(tables.butterfly.get((Color::White, e4, Bitboard::EMPTY)), 0);
/// assert_eq!(tables.counter.get(&board, Some(e4)), None);
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
    /// Empty tables (about 1.3 MiB on the heap, most of it continuation history).
    pub fn boxed() -> Box<Histories> {
        Box::default()
    }

    /// The history score of the quiet move `mv` in `board`: its butterfly entry (for the
    /// squares `threats` the opponent attacks) and its continuation entries after each of the
    /// earlier moves `continuations`. The one place a quiet move is scored: the picker orders
    /// quiet moves by it, and a search reduces and prunes by it.
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
        let mut score = self.butterfly.get((board.side_to_move(), mv, threats));
        if let Some(now) = PieceTo::of(board, mv) {
            for earlier in continuations.iter().flatten() {
                score += self.continuation.get((*earlier, now));
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
    /// use cutoff_ordering::Histories;
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
        self.butterfly.update((board.side_to_move(), mv, threats), bonus);
        if let Some(now) = PieceTo::of(board, mv) {
            for (&plies, earlier) in CONTINUATION_PLIES.iter().zip(continuations) {
                if let Some(earlier) = *earlier {
                    self.continuation.update((earlier, now), if plies >= 4 { bonus / 2 } else { bonus });
                }
            }
        }
    }

    /// Resets every table: a fresh set, so that no table can be left out.
    pub fn clear(&mut self) {
        *self = Histories::default();
    }
}
