//! History tables: butterfly history and countermoves.

use cutoff_board::{Board, Color, Move, Piece};

/// The largest magnitude a history score reaches (the gravity update converges towards it).
///
/// ```
/// use cutoff_board::{Board, Color};
/// use cutoff_ordering::{ButterflyHistory, MAX_HISTORY};
/// let nf3 = Board::default().parse_uci("g1f3").unwrap();
/// let mut history = ButterflyHistory::new();
/// history.update(Color::White, nf3, 1_000_000); // clamped to MAX_HISTORY
/// assert_eq!(history.get(Color::White, nf3), MAX_HISTORY);
/// history.update(Color::White, nf3, MAX_HISTORY); // gravity: saturated, it moves no further
/// assert_eq!(history.get(Color::White, nf3), MAX_HISTORY);
/// for _ in 0..100 {
///     history.update(Color::White, nf3, -5000);
/// }
/// assert!(history.get(Color::White, nf3) >= -MAX_HISTORY);
/// ```
pub const MAX_HISTORY: i32 = 16_384;

/// Butterfly history: how often a quiet move (by colour, from, to) caused a cutoff, minus how
/// often it was tried without one.
///
/// Layout: `table[color][from][to]`, `i16` entries (16 KiB). Updates use "gravity": a bonus
/// `b` moves an entry `h` by `b - h·|b| / MAX_HISTORY`, so entries stay within
/// ±[`MAX_HISTORY`] and old information fades as new arrives.
///
/// ```
/// use cutoff_board::{Board, Color};
/// use cutoff_ordering::{ButterflyHistory, MAX_HISTORY};
/// let b = Board::default();
/// let e4 = b.parse_uci("e2e4").unwrap();
/// let mut h = ButterflyHistory::new();
/// h.update(Color::White, e4, 400);
/// assert_eq!(h.get(Color::White, e4), 400);
/// for _ in 0..1000 { h.update(Color::White, e4, 2000); }
/// assert!(h.get(Color::White, e4) <= MAX_HISTORY);
/// assert_eq!(h.get(Color::Black, e4), 0);
/// ```
#[derive(Clone, Debug)]
pub struct ButterflyHistory {
    table: [[[i16; 64]; 64]; 2],
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
    /// use cutoff_board::{Board, Color};
    /// use cutoff_ordering::ButterflyHistory;
    /// let board = Board::default();
    /// let history = ButterflyHistory::new();
    /// assert!(board.legal_moves().iter().all(|&mv| history.get(Color::White, mv) == 0));
    /// ```
    pub fn new() -> ButterflyHistory {
        ButterflyHistory { table: [[[0; 64]; 64]; 2] }
    }

    /// The score of `mv` played by `color`.
    ///
    /// ```
    /// use cutoff_board::{Board, Color, Move, MoveKind, Square};
    /// use cutoff_ordering::ButterflyHistory;
    /// let mut history = ButterflyHistory::new();
    /// let nf3 = Board::default().parse_uci("g1f3").unwrap();
    /// history.update(Color::White, nf3, 300);
    /// assert_eq!(history.get(Color::White, nf3), 300);
    /// assert_eq!(history.get(Color::Black, nf3), 0); // per colour
    /// // Entries are keyed by from and to squares only: a capture g1xf3 shares the slot.
    /// assert_eq!(history.get(Color::White, Move::new(Square::G1, Square::F3, MoveKind::Capture)), 300);
    /// ```
    #[inline(always)]
    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.table[color as usize][mv.from() as usize][mv.to() as usize] as i32
    }

    /// Adds `bonus` (negative for a malus) with gravity; `bonus` is clamped to ±[`MAX_HISTORY`].
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// use cutoff_ordering::ButterflyHistory;
    /// let e4 = Board::default().parse_uci("e2e4").unwrap();
    /// let mut history = ButterflyHistory::new();
    /// history.update(Color::White, e4, 400); // 0 + 400 - 0 * 400 / 16384
    /// assert_eq!(history.get(Color::White, e4), 400);
    /// history.update(Color::White, e4, 400); // 400 + 400 - 400 * 400 / 16384
    /// assert_eq!(history.get(Color::White, e4), 791);
    /// history.update(Color::White, e4, -1000); // 791 - 1000 - 791 * 1000 / 16384
    /// assert_eq!(history.get(Color::White, e4), -257);
    /// ```
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.table[color as usize][mv.from() as usize][mv.to() as usize];
        let bonus = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
        let h = *entry as i32;
        *entry = (h + bonus - h * bonus.abs() / MAX_HISTORY) as i16;
    }

    /// Resets every entry to zero.
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// use cutoff_ordering::ButterflyHistory;
    /// let e4 = Board::default().parse_uci("e2e4").unwrap();
    /// let mut history = ButterflyHistory::new();
    /// history.update(Color::White, e4, 1000);
    /// history.clear();
    /// assert_eq!(history.get(Color::White, e4), 0);
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
    /// use cutoff_board::Board;
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
    /// let mut other = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 1", false).unwrap();
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
    /// use cutoff_board::Board;
    /// use cutoff_ordering::CounterMoves;
    /// // Kiwipete after 1.O-O: castling moves get no countermove.
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let mut board = Board::from_fen(kiwipete, false).unwrap();
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
/// use cutoff_board::{Board, Color};
/// use cutoff_ordering::Histories;
/// let mut board = Board::default();
/// let mut tables = Histories::boxed();
/// let e4 = board.parse_uci("e2e4").unwrap();
/// tables.butterfly.update(Color::White, e4, 500);
/// board.play(e4);
/// let e5 = board.parse_uci("e7e5").unwrap();
/// tables.counter.set(&board, Some(e4), e5);
/// assert_eq!(tables.butterfly.get(Color::White, e4), 500);
/// assert_eq!(tables.counter.get(&board, Some(e4)), Some(e5));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Histories {
    /// Butterfly history for quiet moves.
    pub butterfly: ButterflyHistory,
    /// Countermoves.
    pub counter: CounterMoves,
}

impl Histories {
    /// Empty tables on the heap (about 17 KiB; search threads keep them boxed).
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// use cutoff_ordering::Histories;
    /// let tables = Histories::boxed();
    /// let board = Board::default();
    /// assert!(board.legal_moves().iter().all(|&mv| tables.butterfly.get(Color::White, mv) == 0));
    /// ```
    pub fn boxed() -> Box<Histories> {
        Box::default()
    }

    /// Resets every table.
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// use cutoff_ordering::Histories;
    /// let mut board = Board::default();
    /// let mut tables = Histories::boxed();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// tables.butterfly.update(Color::White, e4, 500);
    /// board.play(e4);
    /// tables.counter.set(&board, Some(e4), board.parse_uci("c7c5").unwrap());
    /// tables.clear();
    /// assert_eq!(tables.butterfly.get(Color::White, e4), 0);
    /// assert_eq!(tables.counter.get(&board, Some(e4)), None);
    /// ```
    pub fn clear(&mut self) {
        self.butterfly.clear();
        self.counter.clear();
    }
}
