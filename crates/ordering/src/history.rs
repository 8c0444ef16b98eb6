//! History tables: butterfly history and countermoves.

use cutoff_board::{Board, Color, Move, Piece};

/// The largest magnitude a history score reaches (the gravity update converges towards it).
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
    pub fn new() -> ButterflyHistory {
        ButterflyHistory { table: [[[0; 64]; 64]; 2] }
    }

    /// The score of `mv` played by `color`.
    #[inline(always)]
    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.table[color as usize][mv.from() as usize][mv.to() as usize] as i32
    }

    /// Adds `bonus` (negative for a malus) with gravity; `bonus` is clamped to ±[`MAX_HISTORY`].
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.table[color as usize][mv.from() as usize][mv.to() as usize];
        let bonus = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
        let h = *entry as i32;
        *entry = (h + bonus - h * bonus.abs() / MAX_HISTORY) as i16;
    }

    /// Resets every entry to zero.
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
    pub fn new() -> CounterMoves {
        CounterMoves { table: [[None; 64]; 12] }
    }

    /// The piece that made `prev` (which led to `board`), found on its target square.
    #[inline(always)]
    fn mover(board: &Board, prev: Move) -> Option<Piece> {
        if prev.is_castle() { None } else { board.piece_on(prev.to()) }
    }

    /// The countermove to `prev`, the move that led to `board`.
    #[inline]
    pub fn get(&self, board: &Board, prev: Option<Move>) -> Option<Move> {
        let prev = prev?;
        let piece = Self::mover(board, prev)?;
        self.table[piece as usize][prev.to() as usize]
    }

    /// Records `mv` as the countermove to `prev` (the move that led to `board`).
    #[inline]
    pub fn set(&mut self, board: &Board, prev: Option<Move>, mv: Move) {
        if let Some(prev) = prev
            && let Some(piece) = Self::mover(board, prev)
        {
            self.table[piece as usize][prev.to() as usize] = Some(mv);
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = CounterMoves::new();
    }
}

/// The history tables the picker reads, owned per search thread.
#[derive(Clone, Debug, Default)]
pub struct Histories {
    /// Butterfly history for quiet moves.
    pub butterfly: ButterflyHistory,
    /// Countermoves.
    pub counter: CounterMoves,
}

impl Histories {
    /// Empty tables, boxed (they are several KiB; keep them off the stack).
    pub fn boxed() -> Box<Histories> {
        Box::default()
    }

    /// Resets every table.
    pub fn clear(&mut self) {
        self.butterfly.clear();
        self.counter.clear();
    }
}
