//! The staged move picker: the engine's stages here, the ordering study's modes in
//! `picker/study.rs` (feature `study`), the switches in `picker/config.rs`.

use arrayvec::ArrayVec;
use cutoff_board::{Bitboard, Board, CheckSquares, GenKind, Move, PieceType};

use crate::{
    CAPTURE_HISTORY_DIVISOR, CONTINUATION_PLIES, Continuations, Histories, MAX_KILLERS, MVV_LVA_SCALE, mvv_lva,
};

mod config;
mod iter;
#[cfg(feature = "study")]
mod study;

pub use config::{OrderingConfig, Stage};
pub use iter::PickerIter;

/// The picker's internal steps: the public [`Stage`]s plus the generation steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    /// The transposition-table move, before any generation.
    TtMove,
    /// Generating and scoring the node's first list: the noisy moves, or every evasion.
    Generate,
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
    /// Evasions or quiescence: the whole list, best first.
    Rest,
    /// Unstaged mode (ordering study): generating and scoring every move.
    #[cfg(feature = "study")]
    GenAll,
    /// Unstaged mode (ordering study): every move, in the staged order.
    #[cfg(feature = "study")]
    All,
    /// Nothing left.
    Done,
}

/// What kind of node a picker serves, which decides its stages after the TT move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Mode {
    /// Main search: good noisy moves, refutations, quiets, bad noisy moves.
    Main,
    /// In check: every evasion in one list, captures first.
    Evasions,
    /// Quiescence: the noisy moves in one list.
    Qsearch,
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

/// Noisy evasions rank above every quiet one.
const GOOD_NOISY: i32 = 2_000_000;

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
/// assert_eq!(1 + picker.iter(&history).count(), board.legal_moves().len()); // then the rest
/// ```
#[derive(Clone, Debug)]
pub struct MovePicker<'a> {
    /// The position, given once at construction.
    board: &'a Board,
    stage: Step,
    mode: Mode,
    /// The stage of the last returned move.
    last: Option<Stage>,
    config: OrderingConfig,
    tt: Option<Move>,
    /// Killers (newest first) then the countermove; `None` where unused.
    refutations: [Option<Move>; MAX_KILLERS + 1],
    next_refutation: usize,
    /// How many of the refutation slots hold killers (the countermove follows them).
    #[cfg(feature = "study")]
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
    /// The study's deferred scoring: whether the plain quiet moves have their history scores.
    #[cfg(feature = "study")]
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
        (stage, mode): (Step, Mode),
        config: OrderingConfig,
        tt: Option<Move>,
        (refutations, _killers_filled): ([Option<Move>; MAX_KILLERS + 1], usize),
    ) -> MovePicker<'a> {
        MovePicker {
            board,
            stage,
            mode,
            last: None,
            config,
            tt: if config.tt_move() { tt } else { None },
            refutations,
            next_refutation: 0,
            #[cfg(feature = "study")]
            killers_filled: _killers_filled,
            returned: [None; MAX_KILLERS + 1],
            list: ArrayVec::new(),
            cur: 0,
            noisy_end: 0,
            bad_end: 0,
            skip: QuietSkip::None,
            checks: None,
            #[cfg(feature = "study")]
            quiets_scored: true,
            continuations: [None; CONTINUATION_PLIES.len()],
            threats: Bitboard::EMPTY,
            quiets_generated: false,
            noisy_generated: false,
        }
    }

    /// A picker for a main-search node. `killers` are the ply's killers, newest first (only
    /// the first `config.killers()` are used); `counter` is the countermove of the previous move.
    /// Any of the moves may be illegal here: each is checked before it is returned.
    #[inline(always)]
    pub fn main(
        board: &'a Board,
        tt: Option<Move>,
        killers: [Option<Move>; MAX_KILLERS],
        counter: Option<Move>,
        config: OrderingConfig,
    ) -> MovePicker<'a> {
        let start = if board.in_check() && config.evasion_stage() {
            (Step::TtMove, Mode::Evasions)
        } else if config.staged() && config.noisy_first() {
            (Step::TtMove, Mode::Main)
        } else {
            #[cfg(feature = "study")]
            {
                (Step::GenAll, Mode::Main)
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
        MovePicker::with_stage(board, start, config, tt, (refutations, n))
    }

    /// A picker for a quiescence node: the TT move if it is noisy, then noisy moves by
    /// MVV-LVA; all evasions when in check.
    #[inline(always)]
    pub fn qsearch(board: &'a Board, tt: Option<Move>, config: OrderingConfig) -> MovePicker<'a> {
        // In check, always the evasion stage.
        let (mode, tt) =
            if board.in_check() { (Mode::Evasions, tt) } else { (Mode::Qsearch, tt.filter(|m| m.is_noisy())) };
        MovePicker::with_stage(board, (Step::TtMove, mode), config, tt, NO_REFUTATIONS)
    }

    /// Gives the moves that led to the position, [`CONTINUATION_PLIES`] back (`None` before
    /// the root, after a null move, or when not wanted): quiet moves are then also ordered by
    /// continuation history (with [`OrderingConfig::continuation_history`]).
    pub fn set_continuations(&mut self, continuations: Continuations) {
        if self.config.continuation_history() {
            self.continuations = continuations;
        }
    }

    /// Gives the squares the opponent attacks ([`Board::attacks_by`]): quiet moves are then
    /// scored by the butterfly history entries for those threats (the default, no threats,
    /// reads one entry per move whatever the position).
    pub fn set_threats(&mut self, threats: Bitboard) {
        self.threats = threats;
    }

    /// Stops returning quiet moves (killers, countermove and quiets); losing captures still
    /// come. For late-move and futility pruning.
    pub fn skip_quiets(&mut self) {
        self.skip = QuietSkip::All;
    }

    /// Stops returning quiet moves that do not give check; quiet checks (killers and the
    /// countermove among them) still come, in generation order once the quiets are skipped,
    /// and so do all noisy moves. For late-move pruning that never prunes a check: the picker
    /// saves scoring and sorting the quiet moves the search would throw away.
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
    pub fn last_stage(&self) -> Option<Stage> {
        self.last
    }

    /// Whether the noisy moves have been generated (false when the TT move cut off first).
    pub fn noisy_generated(&self) -> bool {
        self.noisy_generated
    }

    /// Whether the quiet moves have been generated (false when an earlier stage cut off).
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

    /// Scores the moves `start..` of the list: noisy ones by [`MovePicker::noisy_score`]
    /// (evasions above every quiet one), quiet ones by [`Histories::quiet_score`].
    #[inline(always)]
    fn score_from(&mut self, history: &Histories, start: usize) {
        let noisy_base = if self.mode == Mode::Evasions { GOOD_NOISY } else { 0 };
        for i in start..self.list.len() {
            let mv = self.list[i].mv;
            let score = if mv.is_noisy() {
                noisy_base + self.noisy_score(history, mv)
            } else if self.config.history() {
                history.quiet_score(self.board, mv, &self.continuations, self.threats)
            } else {
                0
            };
            self.list[i].key = key(score, i - start);
        }
    }

    #[inline(always)]
    fn is_bad_noisy(&self, board: &Board, mv: Move) -> bool {
        self.config.see_split() && (matches!(mv.promotion(), Some(p) if p != PieceType::Queen) || !board.see_ge(mv, 0))
    }

    #[inline(always)]
    fn is_returned(&self, mv: Move) -> bool {
        self.tt == Some(mv) || self.returned.contains(&Some(mv))
    }

    /// The next move, or `None` when every move has been returned.
    pub fn next(&mut self, history: &Histories) -> Option<Move> {
        let board = self.board;
        loop {
            match self.stage {
                Step::TtMove => {
                    self.stage = Step::Generate;
                    if let Some(tt) = self.tt {
                        if board.is_legal(tt) {
                            self.last = Some(Stage::TtMove);
                            return Some(tt);
                        }
                        self.tt = None;
                    }
                }
                Step::Generate => {
                    let evasions = self.mode == Mode::Evasions;
                    board.generate(if evasions { GenKind::All } else { GenKind::Noisy }, &mut Push(&mut self.list));
                    self.noisy_generated = true;
                    self.quiets_generated = evasions;
                    self.score_from(history, 0);
                    self.noisy_end = self.list.len();
                    self.stage = if self.mode == Mode::Main { Step::GoodNoisy } else { Step::Rest };
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
                    self.stage = Step::Quiets;
                    if self.skip == QuietSkip::ButChecks {
                        continue; // only the checks will be returned, in generation order: no scores
                    }
                    #[cfg(feature = "study")]
                    if !self.config.refutations_first() {
                        self.defer_quiets(start);
                        continue;
                    }
                    self.score_from(history, start);
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
                        #[cfg(feature = "study")]
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
                Step::Rest => {
                    while self.cur < self.list.len() {
                        let sm = self.pick_best(self.list.len());
                        if self.tt == Some(sm.mv) || self.skipped(sm.mv) {
                            continue;
                        }
                        self.last = Some(if self.mode == Mode::Evasions { Stage::Evasions } else { Stage::QsNoisy });
                        return Some(sm.mv);
                    }
                    self.stage = Step::Done;
                }
                #[cfg(feature = "study")]
                Step::GenAll | Step::All => return self.next_unstaged(history),
                Step::Done => return None,
            }
        }
    }
}
