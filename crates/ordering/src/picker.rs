//! The staged move picker.

use arrayvec::ArrayVec;
use cutoff_board::{Bitboard, Board, CheckSquares, GenKind, Move, PieceType};

use crate::{
    CAPTURE_HISTORY_DIVISOR, CONTINUATION_PLIES, Continuations, Histories, MAX_KILLERS, MVV_LVA_SCALE, mvv_lva,
};

crate::study_switches! {
    /// Which ordering heuristics the picker uses. [`OrderingConfig::FULL`] is what the engine
    /// plays with, and in normal builds the only value: the switches are constants that fold
    /// away. With the `study` feature they are fields, switchable at run time so that the
    /// effect of each can be measured (`cargo xtask ordering`).
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// assert_eq!(OrderingConfig::default(), OrderingConfig::FULL);
    /// assert!(OrderingConfig::FULL.mvv_lva() && OrderingConfig::FULL.staged());
    /// assert_eq!(OrderingConfig::FULL.killers(), 2);
    /// let board = Board::from_fen("4k3/8/8/3q4/4P3/1p6/2P5/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let first = |config| MovePicker::main(&board, None, [None; 3], None, config).next(&history).unwrap();
    /// assert_eq!(board.uci(first(OrderingConfig::FULL)).to_string(), "e4d5"); // the queen first
    /// #[cfg(feature = "study")]
    /// {
    ///     // Switch one heuristic off to measure it: here, MVV-LVA.
    ///     let no_mvv_lva = OrderingConfig { mvv_lva: false, ..OrderingConfig::FULL };
    ///     assert_eq!(board.uci(first(no_mvv_lva)).to_string(), "c2b3"); // generator order
    /// }
    /// ```
    pub struct OrderingConfig {
        /// Try the transposition-table move first.
        tt_move: bool = true,
        /// Generate noisy moves before quiet ones. Off means one list in generator order
        /// (no ordering at all when every other switch is off too); staging needs it on.
        noisy_first: bool = true,
        /// Sort captures by MVV-LVA (off: generator order).
        mvv_lva: bool = true,
        /// Put captures that lose material (SEE < 0) and under-promotions after the quiet moves.
        see_split: bool = true,
        /// How many killer slots to use, 0 to [`MAX_KILLERS`].
        killers: u8 = 2,
        /// Try the countermove after the killers.
        countermove: bool = true,
        /// Sort quiet moves by butterfly history.
        history: bool = true,
        /// Add continuation history ([`CONTINUATION_PLIES`](crate::CONTINUATION_PLIES) back, see [`MovePicker::set_continuations`])
        /// to the butterfly history of quiet moves (needs `history`).
        continuation_history: bool = true,
        /// Add capture history to MVV-LVA when ordering noisy moves.
        capture_history: bool = true,
        /// Staged generation: generate quiet moves only when the earlier stages did not cut
        /// off. Off: generate every move up front and score the noisy ones (and SEE) at once,
        /// then pick in the same order. The plain quiets get their history scores when the
        /// first of them is reached, as in staged mode, because the search updates the history
        /// while a node's earlier moves are searched: that keeps both modes on exactly the same
        /// tree.
        staged: bool = true,
        /// Verify killers and countermove with `is_legal` and try them before generating quiet
        /// moves. Off: they are found and scored inside the generated quiet list (same order).
        refutations_first: bool = true,
        /// In check, use one evasion stage (all evasions, captures by MVV-LVA then quiets by
        /// history). Off: the normal stages, fed with the evasion-restricted generator.
        evasion_stage: bool = true,
    }
}

impl OrderingConfig {
    /// No ordering at all: moves in generator order. Only with the `study` feature (the
    /// ordering study's baseline); it needs the unstaged mode.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let tt = board.parse_uci("a2a3").ok(); // ignored: `tt_move` is off
    /// let mut picker = MovePicker::main(&board, tt, [None; 3], None, OrderingConfig::NONE);
    /// let order: Vec<_> = std::iter::from_fn(|| picker.next(&history)).collect();
    /// assert_eq!(order, board.legal_moves().to_vec());
    /// ```
    #[cfg(feature = "study")]
    pub const NONE: OrderingConfig = OrderingConfig {
        tt_move: false,
        noisy_first: false,
        mvv_lva: false,
        see_split: false,
        killers: 0,
        countermove: false,
        history: false,
        continuation_history: false,
        capture_history: false,
        staged: false,
        refutations_first: false,
        evasion_stage: false,
    };
}

/// The stage a [`MovePicker`]'s last move came from ([`MovePicker::last_stage`]).
///
/// The picker's internal steps (generating, scoring) are private; this enum only names where
/// a returned move came from, and is `#[non_exhaustive]` so that new stages (history work
/// to come) are not breaking changes.
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// use cutoff_ordering::{Histories, MovePicker, OrderingConfig, Stage};
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
/// let history = Histories::boxed();
/// let tt = board.parse_san("O-O").ok();
/// let killer = board.parse_uci("a2a3").ok();
/// let mut picker = MovePicker::main(&board, tt, [killer, None, None], None, OrderingConfig::FULL);
/// let (mut stages, mut losing) = (Vec::new(), Vec::new());
/// assert_eq!(picker.last_stage(), None); // nothing returned yet
/// while let Some(mv) = picker.next(&history) {
///     let stage = picker.last_stage().unwrap();
///     if stages.last() != Some(&stage) {
///         stages.push(stage);
///     }
///     if stage == Stage::BadNoisy {
///         assert!(!board.see_ge(mv, 0));
///         losing.push(board.san(mv).to_string());
///     }
/// }
/// assert_eq!(stages, [Stage::TtMove, Stage::GoodNoisy, Stage::Refutations, Stage::Quiets, Stage::BadNoisy]);
/// losing.sort();
/// // Each loses the capturing piece for less (the h8 rook guards h3 down the open file).
/// assert_eq!(losing, ["Nxd7", "Nxf7", "Nxg6", "Qxf6", "Qxh3"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stage {
    /// The transposition-table move, returned before any generation (main search, evasions
    /// and quiescence alike).
    TtMove,
    /// Captures and promotions that do not lose material, best MVV-LVA first.
    GoodNoisy,
    /// A killer or the countermove, checked with `is_legal` before quiet generation.
    Refutations,
    /// Quiet moves by history.
    Quiets,
    /// Losing captures and under-promotions.
    BadNoisy,
    /// In check: evasions, captures first.
    Evasions,
    /// Quiescence: noisy moves by MVV-LVA.
    QsNoisy,
    /// The ordering study's unstaged mode (feature `study`): every move from one list.
    #[cfg(feature = "study")]
    Unstaged,
}

/// The picker's internal steps: the public [`Stage`]s plus the generation steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    /// The transposition-table move, before any generation.
    TtMove,
    /// Generating and scoring the noisy moves.
    GenNoisy,
    /// Captures and promotions that do not lose material, best MVV-LVA first.
    GoodNoisy,
    /// Killers, then the countermove, each checked with `is_legal`.
    Refutations,
    /// Generating and scoring the quiet moves.
    GenQuiets,
    /// Quiet moves by history.
    Quiets,
    /// Losing captures and under-promotions.
    BadNoisy,
    /// In check: generating all evasions.
    GenEvasions,
    /// In check: evasions, captures first.
    Evasions,
    /// Quiescence: the TT move if it is noisy.
    QsTtMove,
    /// Quiescence: generating the noisy moves.
    QsGenNoisy,
    /// Quiescence: noisy moves by MVV-LVA.
    QsNoisy,
    /// Unstaged mode (ordering study): generating and scoring every move.
    #[cfg(feature = "study")]
    GenAll,
    /// Unstaged mode (ordering study): every move, in the staged order.
    #[cfg(feature = "study")]
    All,
    /// Nothing left.
    Done,
}

#[derive(Clone, Copy, Debug)]
struct ScoredMove {
    mv: Move,
    /// `score · 256 + (255 − generation index)`: unique within a list, so the order of
    /// equal scores is the generation order whatever the selection algorithm.
    key: i32,
}

#[inline(always)]
fn key(score: i32, index: usize) -> i32 {
    score * 256 + (255 - index as i32)
}

#[cfg(feature = "study")]
const TT_SCORE: i32 = 4_000_000;
const GOOD_NOISY: i32 = 2_000_000;
const KILLER_SCORE: i32 = 1_500_000;
const COUNTER_SCORE: i32 = 1_400_000;
#[cfg(feature = "study")]
const BAD_NOISY: i32 = -2_000_000;

/// The refutation slots and killer count of a picker without killers or countermove.
const NO_REFUTATIONS: ([Option<Move>; MAX_KILLERS + 1], usize) = ([None; MAX_KILLERS + 1], 0);

struct Push<'a>(&'a mut ArrayVec<ScoredMove, 256>);

impl Extend<Move> for Push<'_> {
    #[inline(always)]
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for mv in iter {
            // A legal position has at most 218 moves, so 256 slots never overflow.
            self.0.push(ScoredMove { mv, key: 0 });
        }
    }
}

/// Which quiet moves a picker has stopped returning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QuietSkip {
    /// None: every move comes.
    None,
    /// Every quiet move.
    All,
    /// Every quiet move that does not give check.
    ButChecks,
}

/// Returns the moves of a position one at a time, best first, generating them in stages
/// so that an early beta cutoff saves the rest of the generation.
///
/// Main search: TT move → noisy moves with SEE ≥ 0 by MVV-LVA → killers and countermove
/// (checked with `is_legal`, before quiet generation) → quiet moves by history → losing
/// captures. In check: TT move → all evasions (captures by MVV-LVA, then quiets by history).
/// Quiescence: the TT move if noisy → noisy moves by MVV-LVA (SEE pruning is the search's job);
/// evasions when in check. Every legal move is returned exactly once (or, after
/// [`MovePicker::skip_quiets`], every non-quiet one; after
/// [`MovePicker::skip_quiets_but_checks`], every noisy move and every quiet check).
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
/// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// let history = Histories::boxed();
/// let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
/// let first = picker.next(&history).unwrap();
/// assert_eq!(board.uci(first).to_string(), "e4d5"); // the capture of the queen comes first
/// let mut count = 1;
/// while picker.next(&history).is_some() { count += 1; }
/// assert_eq!(count, board.legal_moves().len());
/// ```
#[derive(Clone, Debug)]
pub struct MovePicker<'a> {
    /// The position, given once at construction.
    board: &'a Board,
    stage: Step,
    /// The stage of the last returned move.
    last: Option<Stage>,
    config: OrderingConfig,
    tt: Option<Move>,
    /// Killers (newest first) then the countermove; `None` where unused.
    refutations: [Option<Move>; MAX_KILLERS + 1],
    next_refutation: usize,
    /// How many of the refutation slots hold killers (the countermove follows them).
    killers_filled: usize,
    /// Refutations actually returned (so the quiet stage skips them).
    returned: [Option<Move>; MAX_KILLERS + 1],
    list: ArrayVec<ScoredMove, 256>,
    cur: usize,
    noisy_end: usize,
    bad_end: usize,
    skip: QuietSkip,
    /// With [`QuietSkip::ButChecks`]: the position's check squares, to test the quiets.
    checks: Option<CheckSquares>,
    /// Unstaged mode: whether the plain quiet moves have their history scores yet.
    quiets_scored: bool,
    /// The earlier moves, for continuation history.
    continuations: Continuations,
    /// The squares the opponent attacks, for butterfly history.
    threats: Bitboard,
    quiets_generated: bool,
    noisy_generated: bool,
}

impl<'a> MovePicker<'a> {
    /// The picker, built in one expression so that the compiler writes it (2 KiB with its
    /// move list) straight into the caller's frame instead of copying it there.
    #[inline(always)]
    fn with_stage(
        board: &'a Board,
        stage: Step,
        config: OrderingConfig,
        tt: Option<Move>,
        (refutations, killers_filled): ([Option<Move>; MAX_KILLERS + 1], usize),
    ) -> MovePicker<'a> {
        MovePicker {
            board,
            stage,
            last: None,
            config,
            tt: if config.tt_move() { tt } else { None },
            refutations,
            next_refutation: 0,
            killers_filled,
            returned: [None; MAX_KILLERS + 1],
            list: ArrayVec::new(),
            cur: 0,
            noisy_end: 0,
            bad_end: 0,
            skip: QuietSkip::None,
            checks: None,
            quiets_scored: false,
            continuations: [None; CONTINUATION_PLIES.len()],
            threats: Bitboard::EMPTY,
            quiets_generated: false,
            noisy_generated: false,
        }
    }

    /// A picker for a main-search node. `killers` are the ply's killers, newest first (only
    /// the first `config.killers()` are used); `counter` is the countermove of the previous move.
    /// Any of the moves may be illegal here: each is checked before it is returned.
    ///
    /// ```
    /// use cutoff_board::{Board, Move, MoveKind, Square};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig, Stage};
    /// let board = Board::default();
    /// let history = Histories::boxed();
    /// let tt = board.parse_uci("e2e4").ok();
    /// let black_move = Move::new(Square::E7, Square::E5, MoveKind::DoublePush); // illegal for White
    /// let nf3 = board.parse_uci("g1f3").ok();
    /// let counter = board.parse_uci("c2c4").ok();
    /// let mut picker = MovePicker::main(&board, tt, [Some(black_move), nf3, None], counter, OrderingConfig::FULL);
    /// assert_eq!(picker.next(&history), tt);
    /// assert_eq!(picker.next(&history), nf3); // the start position has no captures: killers come next
    /// assert_eq!(picker.last_stage(), Some(Stage::Refutations));
    /// assert_eq!(picker.next(&history), counter);
    /// assert!(!picker.quiets_generated()); // three moves tried, nothing generated yet
    /// assert_eq!(std::iter::from_fn(|| picker.next(&history)).count(), 20 - 3);
    /// ```
    #[inline(always)]
    pub fn main(
        board: &'a Board,
        tt: Option<Move>,
        killers: [Option<Move>; MAX_KILLERS],
        counter: Option<Move>,
        config: OrderingConfig,
    ) -> MovePicker<'a> {
        let stage = if (board.in_check() && config.evasion_stage()) || (config.staged() && config.noisy_first()) {
            Step::TtMove
        } else {
            #[cfg(feature = "study")]
            {
                Step::GenAll
            }
            #[cfg(not(feature = "study"))]
            unreachable!("every switch is on without the study feature")
        };
        let mut refutations = [None; MAX_KILLERS + 1];
        let used = (config.killers() as usize).min(MAX_KILLERS);
        let mut n = 0;
        for killer in killers.into_iter().take(used).flatten() {
            if !refutations[..n].contains(&Some(killer)) {
                refutations[n] = Some(killer);
                n += 1;
            }
        }
        if config.countermove()
            && let Some(counter) = counter
            && !refutations[..n].contains(&Some(counter))
        {
            refutations[n] = Some(counter);
        }
        MovePicker::with_stage(board, stage, config, tt, (refutations, n))
    }

    /// A picker for a quiescence node: the TT move if it is noisy, then noisy moves by
    /// MVV-LVA; all evasions when in check.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let quiet_tt = board.parse_uci("a2a3").ok(); // dropped: quiescence only tries noisy moves
    /// let mut picker = MovePicker::qsearch(&board, quiet_tt, OrderingConfig::FULL);
    /// let moves: Vec<_> = std::iter::from_fn(|| picker.next(&history)).collect();
    /// assert_eq!(moves.len(), 8);
    /// assert!(moves.iter().all(|mv| mv.is_noisy()));
    /// assert_eq!(board.san(moves[0]).as_str(), "Bxa6"); // the most valuable victim first
    /// // In check, every evasion: here Kxe2, Kd1 and Kf1.
    /// let check = Board::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let mut picker = MovePicker::qsearch(&check, None, OrderingConfig::FULL);
    /// assert_eq!(check.san(picker.next(&history).unwrap()).as_str(), "Kxe2");
    /// assert_eq!(std::iter::from_fn(|| picker.next(&history)).count(), 2);
    /// ```
    #[inline(always)]
    pub fn qsearch(board: &'a Board, tt: Option<Move>, config: OrderingConfig) -> MovePicker<'a> {
        if board.in_check() {
            // Quiescence in check always takes the evasion stage.
            #[cfg(feature = "study")]
            let config = OrderingConfig { evasion_stage: true, ..config };
            MovePicker::with_stage(board, Step::TtMove, config, tt, NO_REFUTATIONS)
        } else {
            MovePicker::with_stage(board, Step::QsTtMove, config, tt.filter(|m| m.is_noisy()), NO_REFUTATIONS)
        }
    }

    /// Gives the moves that led to the position, [`CONTINUATION_PLIES`] back (`None` before
    /// the root, after a null move, or when not wanted): quiet moves are then also ordered by
    /// continuation history (with [`OrderingConfig::continuation_history`]).
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig, PieceTo};
    /// let mut board = Board::default();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// let earlier = PieceTo::of(&board, e4);
    /// board.play(e4);
    /// let mut history = Histories::boxed();
    /// let a6 = board.parse_uci("a7a6").unwrap();
    /// history.continuation.update((earlier.unwrap(), PieceTo::of(&board, a6).unwrap()), 900);
    /// let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
    /// picker.set_continuations([earlier, None, None]);
    /// assert_eq!(picker.next(&history), Some(a6)); // a quiet move that answered e4 well before
    /// ```
    pub fn set_continuations(&mut self, continuations: Continuations) {
        self.continuations = continuations;
    }

    /// Gives the squares the opponent attacks ([`Board::attacks_by`]): quiet moves are then
    /// scored by the butterfly history entries for those threats (the default, no threats,
    /// reads one entry per move whatever the position).
    ///
    /// ```
    /// use cutoff_board::{Bitboard, Board};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let board = Board::default();
    /// let threats = board.attacks_by(!board.side_to_move());
    /// let mut history = Histories::boxed();
    /// let a3 = board.parse_uci("a2a3").unwrap();
    /// history.butterfly.update((board.side_to_move(), a3, threats), 900);
    /// let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
    /// picker.set_threats(threats);
    /// assert_eq!(picker.next(&history), Some(a3));
    /// ```
    pub fn set_threats(&mut self, threats: Bitboard) {
        self.threats = threats;
    }

    /// Stops returning quiet moves (killers, countermove and quiets); losing captures still
    /// come. For late-move and futility pruning.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let killer = board.parse_uci("a2a3").ok();
    /// let mut picker = MovePicker::main(&board, None, [killer, None, None], None, OrderingConfig::FULL);
    /// let first = picker.next(&history).unwrap();
    /// picker.skip_quiets();
    /// let rest: Vec<_> = std::iter::from_fn(|| picker.next(&history)).collect();
    /// assert!(first.is_noisy() && rest.iter().all(|mv| mv.is_noisy())); // not even the killer
    /// assert_eq!(1 + rest.len(), 8); // every noisy move, losing captures included
    /// assert!(!picker.quiets_generated());
    /// ```
    pub fn skip_quiets(&mut self) {
        self.skip = QuietSkip::All;
    }

    /// Stops returning quiet moves that do not give check; quiet checks (killers and the
    /// countermove among them) still come, in generation order once the quiets are skipped,
    /// and so do all noisy moves. For late-move pruning that never prunes a check: the picker
    /// saves scoring and sorting the quiet moves the search would throw away.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let board = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
    /// picker.skip_quiets_but_checks();
    /// let rest: Vec<String> = std::iter::from_fn(|| picker.next(&history)).map(|mv| board.uci(mv).to_string()).collect();
    /// assert_eq!(rest, ["a1a8"]); // the only check; no capture here
    /// ```
    pub fn skip_quiets_but_checks(&mut self) {
        if self.skip == QuietSkip::None {
            self.skip = QuietSkip::ButChecks;
            self.checks = Some(self.board.check_squares());
        }
    }

    /// Whether a quiet-skip in force hides `mv`.
    #[inline]
    fn skipped(&self, mv: Move) -> bool {
        match self.skip {
            QuietSkip::None => false,
            QuietSkip::All => mv.is_quiet(),
            QuietSkip::ButChecks => {
                mv.is_quiet()
                    && !match &self.checks {
                        Some(checks) => self.board.gives_check_with(checks, mv),
                        None => self.board.gives_check(mv),
                    }
            }
        }
    }

    /// The stage the last returned move came from.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig, Stage};
    /// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let tt = board.parse_uci("e1f1").ok();
    /// let mut picker = MovePicker::main(&board, tt, [None; 3], None, OrderingConfig::FULL);
    /// picker.next(&history);
    /// assert_eq!(picker.last_stage(), Some(Stage::TtMove));
    /// assert_eq!(picker.next(&history).map(|mv| board.uci(mv).to_string()), Some("e4d5".to_string()));
    /// assert_eq!(picker.last_stage(), Some(Stage::GoodNoisy));
    /// ```
    pub fn last_stage(&self) -> Option<Stage> {
        self.last
    }

    /// Whether the noisy moves have been generated (false when the TT move cut off first).
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let board = Board::default();
    /// let history = Histories::boxed();
    /// let mut picker = MovePicker::main(&board, board.parse_uci("d2d4").ok(), [None; 3], None, OrderingConfig::FULL);
    /// assert!(!picker.noisy_generated());
    /// picker.next(&history); // the TT move, found without generating anything
    /// assert!(!picker.noisy_generated());
    /// picker.next(&history);
    /// assert!(picker.noisy_generated());
    /// ```
    pub fn noisy_generated(&self) -> bool {
        self.noisy_generated
    }

    /// Whether the quiet moves have been generated (false when an earlier stage cut off).
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let mut picker = MovePicker::main(&board, None, [None; 3], None, OrderingConfig::FULL);
    /// picker.next(&history); // exd5, a capture: a cutoff here saves generating the quiet moves
    /// assert!(picker.noisy_generated() && !picker.quiets_generated());
    /// picker.next(&history);
    /// assert!(picker.quiets_generated());
    /// ```
    pub fn quiets_generated(&self) -> bool {
        self.quiets_generated
    }

    /// Swaps the best remaining entry of `cur..end` into `cur` and returns it.
    #[inline(always)]
    fn pick_best(&mut self, end: usize) -> ScoredMove {
        // Keys are unique, so the maximum is one entry whatever the scan order. One bounds
        // check for the slice, none in the loop, and the best key kept in a register.
        let rest = &self.list[self.cur..end];
        let mut best = 0;
        let mut best_key = rest[0].key;
        for (i, sm) in rest.iter().enumerate().skip(1) {
            if sm.key > best_key {
                best = i;
                best_key = sm.key;
            }
        }
        self.list.swap(self.cur, self.cur + best);
        let sm = self.list[self.cur];
        self.cur += 1;
        sm
    }

    /// The ordering score of a noisy move: MVV-LVA, refined by capture history (at most a few
    /// attacker steps of MVV-LVA either way).
    #[inline(always)]
    fn noisy_score(&self, history: &Histories, mv: Move) -> i32 {
        let mvv_lva = if self.config.mvv_lva() { mvv_lva(self.board, mv) * MVV_LVA_SCALE.get() } else { 0 };
        let history = if self.config.capture_history() {
            history.capture.get((self.board, mv)) / CAPTURE_HISTORY_DIVISOR.get()
        } else {
            0
        };
        mvv_lva + history
    }

    /// The history score of a quiet move: the one place quiet moves are scored from the
    /// history tables, in every stage and mode.
    #[inline(always)]
    fn history_score(&self, history: &Histories, mv: Move) -> i32 {
        if !self.config.history() {
            return 0;
        }
        let none = [None; CONTINUATION_PLIES.len()];
        let continuations = if self.config.continuation_history() { &self.continuations } else { &none };
        history.quiet_score(self.board, mv, continuations, self.threats)
    }

    #[inline(always)]
    fn is_bad_noisy(&self, board: &Board, mv: Move) -> bool {
        self.config.see_split() && (matches!(mv.promotion(), Some(p) if p != PieceType::Queen) || !board.see_ge(mv, 0))
    }

    /// The ordering score of a refutation slot: killers newest first, then the countermove.
    #[inline(always)]
    fn refutation_score(&self, slot: usize) -> i32 {
        if slot < self.killers_filled { KILLER_SCORE - slot as i32 } else { COUNTER_SCORE }
    }

    #[inline(always)]
    fn quiet_score(&self, history: &Histories, mv: Move) -> i32 {
        if !self.config.refutations_first()
            && let Some(slot) = self.refutations.iter().position(|&r| r == Some(mv))
        {
            return self.refutation_score(slot);
        }
        self.history_score(history, mv)
    }

    #[inline(always)]
    fn is_returned(&self, mv: Move) -> bool {
        self.tt == Some(mv) || self.returned.contains(&Some(mv))
    }

    /// The next move, or `None` when every move has been returned.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let tt = board.parse_uci("e2a6").ok();
    /// let killers = [board.parse_uci("a2a3").ok(), None, None];
    /// let mut picker = MovePicker::main(&board, tt, killers, None, OrderingConfig::FULL);
    /// let mut seen = HashSet::new();
    /// while let Some(mv) = picker.next(&history) {
    ///     assert!(seen.insert(mv), "{mv} returned twice");
    /// }
    /// assert_eq!(seen, board.legal_moves().into_iter().collect());
    /// assert_eq!(picker.next(&history), None); // and it stays done
    /// ```
    pub fn next(&mut self, history: &Histories) -> Option<Move> {
        let board = self.board;
        loop {
            match self.stage {
                Step::TtMove => {
                    self.stage = if board.in_check() && self.config.evasion_stage() {
                        Step::GenEvasions
                    } else {
                        Step::GenNoisy
                    };
                    if let Some(tt) = self.tt {
                        if board.is_legal(tt) {
                            self.last = Some(Stage::TtMove);
                            return Some(tt);
                        }
                        self.tt = None;
                    }
                }
                Step::GenNoisy => {
                    board.generate(GenKind::Noisy, &mut Push(&mut self.list));
                    self.noisy_generated = true;
                    for i in 0..self.list.len() {
                        let mv = self.list[i].mv;
                        self.list[i].key = key(self.noisy_score(history, mv), i);
                    }
                    self.noisy_end = self.list.len();
                    self.stage = Step::GoodNoisy;
                }
                Step::GoodNoisy => {
                    while self.cur < self.noisy_end {
                        let sm = self.pick_best(self.noisy_end);
                        if self.tt == Some(sm.mv) {
                            continue;
                        }
                        if self.is_bad_noisy(board, sm.mv) {
                            self.list[self.bad_end] = sm;
                            self.bad_end += 1;
                            continue;
                        }
                        self.last = Some(Stage::GoodNoisy);
                        return Some(sm.mv);
                    }
                    self.stage = if self.config.refutations_first() { Step::Refutations } else { Step::GenQuiets };
                }
                Step::Refutations => {
                    while self.skip != QuietSkip::All && self.next_refutation < self.refutations.len() {
                        let i = self.next_refutation;
                        self.next_refutation += 1;
                        let Some(mv) = self.refutations[i] else { continue };
                        if mv.is_quiet() && self.tt != Some(mv) && board.is_legal(mv) && !self.skipped(mv) {
                            self.returned[i] = Some(mv);
                            self.last = Some(Stage::Refutations);
                            return Some(mv);
                        }
                    }
                    self.stage = Step::GenQuiets;
                }
                Step::GenQuiets => {
                    if self.skip == QuietSkip::All {
                        self.stage = Step::BadNoisy;
                        self.cur = 0;
                        continue;
                    }
                    self.cur = self.list.len();
                    let start = self.cur;
                    board.generate(GenKind::Quiet, &mut Push(&mut self.list));
                    self.quiets_generated = true;
                    if self.skip == QuietSkip::ButChecks {
                        // Only the checks will be returned, in generation order: no scores.
                        self.quiets_scored = true;
                        self.stage = Step::Quiets;
                        continue;
                    }
                    // With the refutations inside the quiet list, the plain quiets are scored
                    // only once the refutations have been searched (as when they come first),
                    // so both placements see the same history and search the same tree.
                    let defer = !self.config.refutations_first();
                    self.quiets_scored = !defer;
                    for i in start..self.list.len() {
                        let mv = self.list[i].mv;
                        let score = match self.refutations.iter().position(|&r| r == Some(mv)) {
                            Some(slot) if defer => self.refutation_score(slot),
                            _ if defer => 0,
                            _ => self.quiet_score(history, mv),
                        };
                        self.list[i].key = key(score, i - start);
                    }
                    self.stage = Step::Quiets;
                }
                Step::Quiets => {
                    while self.skip == QuietSkip::ButChecks && self.cur < self.list.len() {
                        // Skipping all but checks: no more sorting, a scan for the checks.
                        let mv = self.list[self.cur].mv;
                        self.cur += 1;
                        if !self.skipped(mv) && !self.is_returned(mv) {
                            self.last = Some(Stage::Quiets);
                            return Some(mv);
                        }
                    }
                    while self.skip == QuietSkip::None && self.cur < self.list.len() {
                        let sm = self.pick_best(self.list.len());
                        if !self.quiets_scored && !self.refutations.contains(&Some(sm.mv)) {
                            self.cur -= 1;
                            self.score_plain_quiets(history);
                            continue;
                        }
                        if self.is_returned(sm.mv) {
                            continue;
                        }
                        self.last = Some(Stage::Quiets);
                        return Some(sm.mv);
                    }
                    self.stage = Step::BadNoisy;
                    self.cur = 0;
                }
                Step::BadNoisy => {
                    if self.cur < self.bad_end {
                        let mv = self.list[self.cur].mv;
                        self.cur += 1;
                        self.last = Some(Stage::BadNoisy);
                        return Some(mv);
                    }
                    self.stage = Step::Done;
                }
                Step::GenEvasions => {
                    board.generate(GenKind::All, &mut Push(&mut self.list));
                    self.noisy_generated = true;
                    self.quiets_generated = true;
                    for i in 0..self.list.len() {
                        let mv = self.list[i].mv;
                        let score = if mv.is_noisy() {
                            GOOD_NOISY + self.noisy_score(history, mv)
                        } else {
                            self.history_score(history, mv)
                        };
                        self.list[i].key = key(score, i);
                    }
                    self.stage = Step::Evasions;
                }
                Step::Evasions => {
                    while self.cur < self.list.len() {
                        let sm = self.pick_best(self.list.len());
                        if self.tt == Some(sm.mv) || self.skipped(sm.mv) {
                            continue;
                        }
                        self.last = Some(Stage::Evasions);
                        return Some(sm.mv);
                    }
                    self.stage = Step::Done;
                }
                Step::QsTtMove => {
                    self.stage = Step::QsGenNoisy;
                    if let Some(tt) = self.tt {
                        if board.is_legal(tt) {
                            self.last = Some(Stage::TtMove);
                            return Some(tt);
                        }
                        self.tt = None;
                    }
                }
                Step::QsGenNoisy => {
                    board.generate(GenKind::Noisy, &mut Push(&mut self.list));
                    self.noisy_generated = true;
                    for i in 0..self.list.len() {
                        let mv = self.list[i].mv;
                        self.list[i].key = key(self.noisy_score(history, mv), i);
                    }
                    self.stage = Step::QsNoisy;
                }
                Step::QsNoisy => {
                    while self.cur < self.list.len() {
                        let sm = self.pick_best(self.list.len());
                        if self.tt == Some(sm.mv) {
                            continue;
                        }
                        self.last = Some(Stage::QsNoisy);
                        return Some(sm.mv);
                    }
                    self.stage = Step::Done;
                }
                #[cfg(feature = "study")]
                Step::GenAll => {
                    self.gen_all(history);
                    self.stage = Step::All;
                }
                #[cfg(feature = "study")]
                Step::All => {
                    while self.cur < self.list.len() {
                        let sm = self.pick_best(self.list.len());
                        if !self.quiets_scored && sm.key < key(KILLER_SCORE / 2, 255) && sm.key > key(BAD_NOISY / 2, 0)
                        {
                            // The first plain quiet: everything ranked above it is done, so this
                            // is when the staged picker would score the quiets. Score them now,
                            // with the history as it is now, and pick again.
                            self.cur -= 1;
                            self.score_plain_quiets(history);
                            continue;
                        }
                        if self.skipped(sm.mv) && self.tt != Some(sm.mv) {
                            continue;
                        }
                        self.last = Some(Stage::Unstaged);
                        return Some(sm.mv);
                    }
                    self.stage = Step::Done;
                }
                Step::Done => return None,
            }
        }
    }

    /// The remaining moves as an [`Iterator`] that reads `history` at every step, for loops in
    /// which the history does not change (a move list to print, a root to sort, tests).
    ///
    /// `MovePicker` itself is not an `Iterator`, by design: a search updates the history
    /// tables while a node's earlier moves are searched (a cutoff deeper in the tree writes
    /// them), and the quiet moves must be scored with the history as it is when they are
    /// reached. So the picker cannot hold a shared borrow of the tables for its whole life;
    /// [`MovePicker::next`] takes them at each call, and this adaptor borrows them only for as
    /// long as the iterator lives.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let kiwipete: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
    /// let history = Histories::boxed();
    /// let mut picker = MovePicker::main(&kiwipete, None, [None; 3], None, OrderingConfig::FULL);
    /// let first_three: Vec<String> = picker.iter(&history).take(3).map(|mv| kiwipete.san(mv).to_string()).collect();
    /// assert_eq!(first_three, ["Bxa6", "gxh3", "dxe6"]); // the bishop, then pawns (by MVV-LVA)
    /// assert_eq!(picker.iter(&history).count(), 48 - 3); // the rest
    /// ```
    pub fn iter<'p>(&'p mut self, history: &'p Histories) -> PickerIter<'p, 'a> {
        PickerIter { picker: self, history }
    }

    /// Unstaged mode (ordering study): generate and score everything so that picking by key
    /// gives exactly the staged order.
    #[cfg(feature = "study")]
    fn gen_all(&mut self, history: &Histories) {
        let board = self.board;
        self.noisy_generated = true;
        self.quiets_generated = true;
        if !self.config.noisy_first() {
            board.generate(GenKind::All, &mut Push(&mut self.list));
            for i in 0..self.list.len() {
                let mv = self.list[i].mv;
                let score = if self.tt == Some(mv) {
                    TT_SCORE
                } else if mv.is_noisy() {
                    self.noisy_score(history, mv)
                } else {
                    self.quiet_score(history, mv)
                };
                self.list[i].key = key(score, i);
            }
            self.quiets_scored = true; // one list in generator order: nothing is deferred
            return;
        }
        board.generate(GenKind::Noisy, &mut Push(&mut self.list));
        let noisy_end = self.list.len();
        for i in 0..noisy_end {
            let mv = self.list[i].mv;
            let base = if self.is_bad_noisy(board, mv) { BAD_NOISY } else { GOOD_NOISY };
            let score = if self.tt == Some(mv) { TT_SCORE } else { base + self.noisy_score(history, mv) };
            self.list[i].key = key(score, i);
        }
        board.generate(GenKind::Quiet, &mut Push(&mut self.list));
        for i in noisy_end..self.list.len() {
            let mv = self.list[i].mv;
            let score = if self.tt == Some(mv) {
                TT_SCORE
            } else if let Some(r) = self.refutations.iter().position(|&r| r == Some(mv)) {
                self.refutation_score(r)
            } else {
                0 // scored from the history when the first plain quiet is reached
            };
            self.list[i].key = key(score, i - noisy_end);
        }
    }

    /// Unstaged mode: gives the remaining plain quiet moves their history scores.
    fn score_plain_quiets(&mut self, history: &Histories) {
        self.quiets_scored = true;
        for i in self.cur..self.list.len() {
            let mv = self.list[i].mv;
            let plain = mv.is_quiet() && self.tt != Some(mv) && !self.refutations.contains(&Some(mv));
            if plain && self.config.history() {
                // The generation index is recovered from the key, so ties keep generator order.
                let index = 255 - self.list[i].key.rem_euclid(256) as usize;
                self.list[i].key = key(self.history_score(history, mv), index);
            }
        }
    }
}

/// The moves of a [`MovePicker`] as an [`Iterator`]; see [`MovePicker::iter`].
#[derive(Debug)]
pub struct PickerIter<'p, 'a> {
    picker: &'p mut MovePicker<'a>,
    history: &'p Histories,
}

impl Iterator for PickerIter<'_, '_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        self.picker.next(self.history)
    }
}

/// Once the picker has returned `None` it stays done.
impl core::iter::FusedIterator for PickerIter<'_, '_> {}
