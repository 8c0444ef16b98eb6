//! The staged move picker the engine runs. The ordering study's other ways of picking run their
//! own steps over its state (`study.rs`, feature `study`).

use arrayvec::ArrayVec;
use cutoff_board::{Bitboard, Board, CheckSquares, GenKind, Move, PieceType};

use crate::{
    CAPTURE_HISTORY_DIVISOR, CONTINUATION_PLIES, Continuations, Histories, MAX_KILLERS, MVV_LVA_SCALE, OrderingConfig,
    mvv_lva,
};

mod iter;

pub use iter::PickerIter;

/// The picker's steps: the public [`Stage`]s, and the generation before them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    TtMove,
    /// Generating and scoring the node's first list: the noisy moves, or every evasion.
    Generate,
    GoodNoisy,
    /// Killers, then the countermove, each checked with `is_legal`.
    Refutations,
    GenQuiets,
    Quiets,
    BadNoisy,
    /// Evasions or quiescence: the whole list, best first.
    Rest,
    Done,
}

/// The stage a [`MovePicker`]'s last move came from ([`MovePicker::last_stage`]): where the
/// move came from, not the picker's internal steps (generating, scoring);
/// `#[non_exhaustive]`, so that adding a stage is not a breaking change.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_ordering::{Histories, MovePicker, OrderingConfig, Stage};
/// let kiwipete: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// let (tt, killer) = (kiwipete.parse_san("O-O").ok(), kiwipete.parse_uci("a2a3").ok());
/// let mut picker = MovePicker::main(&kiwipete, tt, [killer, None, None], None, OrderingConfig::FULL);
/// assert_eq!(picker.last_stage(), None); // nothing returned yet
/// let mut stages = Vec::new();
/// while picker.next(&Histories::boxed()).is_some() {
///     stages.push(picker.last_stage().unwrap());
/// }
/// stages.dedup();
/// assert_eq!(stages, [Stage::TtMove, Stage::GoodNoisy, Stage::Refutations, Stage::Quiets, Stage::BadNoisy]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stage {
    /// The transposition-table move, returned before any generation (at every kind of node).
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
}

/// What kind of node a picker serves, which decides its steps after the TT move: the main
/// search's stages, every evasion in one list (captures first), or quiescence's noisy moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Main,
    Evasions,
    Qsearch,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ScoredMove {
    pub(crate) mv: Move,
    /// `score · 256 + (255 − generation index)`: unique within a list, so the order of
    /// equal scores is the generation order whatever the selection algorithm.
    pub(crate) key: i32,
}

#[inline(always)]
pub(crate) fn key(score: i32, index: usize) -> i32 {
    score * 256 + (255 - index as i32)
}

/// Noisy evasions rank above every quiet one.
pub(crate) const GOOD_NOISY: i32 = 2_000_000;

/// Appends generated moves to a picker's list, unscored.
pub(crate) struct Push<'a>(pub(crate) &'a mut ArrayVec<ScoredMove, 256>);

impl Extend<Move> for Push<'_> {
    #[inline(always)]
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for mv in iter {
            // A legal position has at most 218 moves, so 256 slots never overflow.
            self.0.push(ScoredMove { mv, key: 0 });
        }
    }
}

/// Refutation slots: the killers (newest first) then the countermove, `None` where unused.
pub(crate) type Slots = [Option<Move>; MAX_KILLERS + 1];

/// Which quiet moves a picker has stopped returning: none, all, or all that do not give check
/// (tested with the position's check squares).
#[derive(Clone, Copy, Debug)]
pub(crate) enum QuietSkip {
    None,
    All,
    ButChecks(CheckSquares),
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
    pub(crate) board: &'a Board,
    stage: Step,
    mode: Mode,
    /// The stage of the last returned move.
    pub(crate) last: Option<Stage>,
    pub(crate) config: OrderingConfig,
    pub(crate) tt: Option<Move>,
    pub(crate) refutations: Slots,
    next_refutation: usize,
    /// Refutations actually returned (so the quiet stage skips them).
    returned: Slots,
    pub(crate) list: ArrayVec<ScoredMove, 256>,
    pub(crate) cur: usize,
    pub(crate) noisy_end: usize,
    pub(crate) bad_end: usize,
    pub(crate) skip: QuietSkip,
    /// The earlier moves, for continuation history.
    continuations: Continuations,
    /// The squares the opponent attacks, for butterfly history.
    threats: Bitboard,
    pub(crate) quiets_generated: bool,
    pub(crate) noisy_generated: bool,
}

impl<'a> MovePicker<'a> {
    /// The picker, built in one expression so that the compiler writes it (2 KiB with its
    /// move list) straight into the caller's frame instead of copying it there.
    #[inline(always)]
    fn new(board: &'a Board, mode: Mode, config: OrderingConfig, tt: Option<Move>, refutations: Slots) -> Self {
        MovePicker {
            board,
            stage: Step::TtMove,
            mode,
            last: None,
            config,
            tt: if config.tt_move() { tt } else { None },
            refutations,
            next_refutation: 0,
            returned: [None; MAX_KILLERS + 1],
            list: ArrayVec::new(),
            cur: 0,
            noisy_end: 0,
            bad_end: 0,
            skip: QuietSkip::None,
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
        let mode = if board.in_check() && config.evasion_stage() { Mode::Evasions } else { Mode::Main };
        MovePicker::new(board, mode, config, tt, config.refutations(killers, counter).0)
    }

    /// A picker for a quiescence node: the TT move if it is noisy, then noisy moves by
    /// MVV-LVA; all evasions when in check.
    #[inline(always)]
    pub fn qsearch(board: &'a Board, tt: Option<Move>, config: OrderingConfig) -> MovePicker<'a> {
        let (mode, tt) =
            if board.in_check() { (Mode::Evasions, tt) } else { (Mode::Qsearch, tt.filter(|m| m.is_noisy())) };
        MovePicker::new(board, mode, config, tt, [None; MAX_KILLERS + 1])
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
        if matches!(self.skip, QuietSkip::None) {
            self.skip = QuietSkip::ButChecks(self.board.check_squares());
        }
    }

    /// Whether a quiet-skip in force hides `mv`.
    #[inline]
    pub(crate) fn skipped(&self, mv: Move) -> bool {
        match &self.skip {
            QuietSkip::None => false,
            QuietSkip::All => mv.is_quiet(),
            QuietSkip::ButChecks(checks) => mv.is_quiet() && !self.board.gives_check_with(checks, mv),
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
    pub(crate) fn pick_best(&mut self, end: usize) -> ScoredMove {
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
    pub(crate) fn noisy_score(&self, history: &Histories, mv: Move) -> i32 {
        let mvv_lva = if self.config.mvv_lva() { mvv_lva(self.board, mv) * MVV_LVA_SCALE.get() } else { 0 };
        let history = if self.config.capture_history() {
            history.capture.get((self.board, mv)) / CAPTURE_HISTORY_DIVISOR.get()
        } else {
            0
        };
        mvv_lva + history
    }

    /// The ordering score of a quiet move: its history, or 0 with the history switched off.
    #[inline(always)]
    pub(crate) fn quiet_score(&self, history: &Histories, mv: Move) -> i32 {
        if self.config.history() { history.quiet_score(self.board, mv, &self.continuations, self.threats) } else { 0 }
    }

    /// Scores the moves `start..` of the list: noisy ones by [`MovePicker::noisy_score`]
    /// (evasions above every quiet one), quiet ones by [`Histories::quiet_score`].
    #[inline(always)]
    pub(crate) fn score_from(&mut self, history: &Histories, start: usize) {
        let noisy_base = if self.mode == Mode::Evasions { GOOD_NOISY } else { 0 };
        for i in start..self.list.len() {
            let mv = self.list[i].mv;
            let score =
                if mv.is_noisy() { noisy_base + self.noisy_score(history, mv) } else { self.quiet_score(history, mv) };
            self.list[i].key = key(score, i - start);
        }
    }

    /// Whether a noisy move goes after the quiets: an under-promotion, or a capture that
    /// loses material.
    #[inline(always)]
    pub(crate) fn is_bad_noisy(&self, mv: Move) -> bool {
        self.config.see_split()
            && (matches!(mv.promotion(), Some(p) if p != PieceType::Queen) || !self.board.see_ge(mv, 0))
    }

    #[inline(always)]
    pub(crate) fn is_returned(&self, mv: Move) -> bool {
        self.tt == Some(mv) || self.returned.contains(&Some(mv))
    }

    /// The next move, or `None` when every move has been returned.
    pub fn next(&mut self, history: &Histories) -> Option<Move> {
        let board = self.board;
        loop {
            match self.stage {
                Step::TtMove => {
                    self.stage = Step::Generate;
                    self.tt = self.tt.filter(|&tt| board.is_legal(tt));
                    if self.tt.is_some() {
                        self.last = Some(Stage::TtMove);
                        return self.tt;
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
                        if self.is_bad_noisy(sm.mv) {
                            self.list[self.bad_end] = sm;
                            self.bad_end += 1;
                            continue;
                        }
                        self.last = Some(Stage::GoodNoisy);
                        return Some(sm.mv);
                    }
                    self.stage = Step::Refutations;
                }
                Step::Refutations => {
                    while !matches!(self.skip, QuietSkip::All) && self.next_refutation < self.refutations.len() {
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
                    self.cur = self.list.len();
                    self.stage = Step::Quiets;
                    if !matches!(self.skip, QuietSkip::All) {
                        board.generate(GenKind::Quiet, &mut Push(&mut self.list));
                        self.quiets_generated = true;
                        // Skipping all but checks: they come in generation order, unscored.
                        if matches!(self.skip, QuietSkip::None) {
                            self.score_from(history, self.cur);
                        }
                    }
                }
                Step::Quiets => {
                    while matches!(self.skip, QuietSkip::ButChecks(_)) && self.cur < self.list.len() {
                        // Skipping all but checks: no more sorting, a scan for the checks.
                        let mv = self.list[self.cur].mv;
                        self.cur += 1;
                        if !self.skipped(mv) && !self.is_returned(mv) {
                            self.last = Some(Stage::Quiets);
                            return Some(mv);
                        }
                    }
                    while matches!(self.skip, QuietSkip::None) && self.cur < self.list.len() {
                        let sm = self.pick_best(self.list.len());
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
                        self.cur += 1;
                        self.last = Some(Stage::BadNoisy);
                        return Some(self.list[self.cur - 1].mv);
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
                Step::Done => return None,
            }
        }
    }
}
