//! The ordering study's picker (feature `study`): the engine's [`MovePicker`], or one of the
//! study's other ways to pick the same order, which run their own steps over the engine
//! picker's state: the unstaged picker, which generates and scores every move up front, and
//! the quiet list with the killers and countermove scored inside it. Each gives exactly the
//! engine's order (`crates/ordering/tests/picker.rs` checks it; `cargo xtask ordering` prints
//! the node counts side by side), so that the study times the staging alone. The engine's
//! picker knows nothing of them.

use cutoff_board::{Bitboard, Board, GenKind, Move};

use crate::picker::{GOOD_NOISY, Push, QuietSkip, key};
use crate::{Continuations, Histories, MAX_KILLERS, MovePicker, OrderingConfig};

const TT_SCORE: i32 = 4_000_000;
const KILLER_SCORE: i32 = 1_500_000;
const COUNTER_SCORE: i32 = 1_400_000;
const BAD_NOISY: i32 = -2_000_000;

impl OrderingConfig {
    /// No ordering at all: moves in generator order. Only with the `study` feature (the
    /// ordering study's baseline); it needs the unstaged mode of [`StudyPicker`].
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// use cutoff_ordering::{Histories, OrderingConfig, StudyPicker};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// let history = Histories::boxed();
    /// let tt = board.parse_uci("a2a3").ok(); // ignored: `tt_move` is off
    /// let mut picker = StudyPicker::main(&board, tt, [None; 3], None, OrderingConfig::NONE);
    /// let order: Vec<_> = std::iter::from_fn(|| picker.next(&history)).collect();
    /// assert_eq!(order, board.legal_moves().to_vec());
    /// ```
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

/// Where a [`StudyPicker`] is: handing over to the engine's picker, or its own steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The engine's staged picker does it all.
    Engine,
    /// Refutations inside the quiet list: the TT move, checked with `is_legal`.
    TtMove,
    /// Generating and scoring the noisy moves.
    Generate,
    /// Noisy moves that do not lose material, best first.
    GoodNoisy,
    /// Generating the quiet moves and scoring the refutations among them.
    GenQuiets,
    /// Quiet moves, refutations first; the others scored by history when the first is reached.
    Quiets,
    /// Losing captures and under-promotions.
    BadNoisy,
    /// Unstaged: generating and scoring every move.
    GenAll,
    /// Unstaged: every move, in the staged order.
    All,
    /// Nothing left.
    Done,
}

/// The ordering study's picker (feature `study`): the engine's [`MovePicker`] when
/// `config` asks for its way of picking (or at a node in check with the evasion stage, and in
/// quiescence), else the study's other way to pick the same order: without
/// [`OrderingConfig::staged`] (or [`OrderingConfig::noisy_first`]) every move is generated
/// and scored at the first call; without [`OrderingConfig::refutations_first`] the killers
/// and the countermove are found and scored inside the generated quiet list. The search runs
/// it in place of [`MovePicker`] when built with the `study` feature.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_ordering::{Histories, MovePicker, OrderingConfig, StudyPicker};
/// let kiwipete: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// let history = Histories::boxed();
/// let (tt, killers) = (kiwipete.parse_uci("e1g1").ok(), [kiwipete.parse_uci("a2a3").ok(), None, None]);
/// let unstaged = OrderingConfig { staged: false, ..OrderingConfig::FULL };
/// let mut study = StudyPicker::main(&kiwipete, tt, killers, None, unstaged);
/// let mut engine = MovePicker::main(&kiwipete, tt, killers, None, OrderingConfig::FULL);
/// assert_eq!(study.next(&history), tt);
/// assert!(study.quiets_generated()); // everything is generated at the first call
/// assert!(std::iter::from_fn(|| study.next(&history)).eq(engine.iter(&history).skip(1)));
/// ```
#[derive(Clone, Debug)]
pub struct StudyPicker<'a> {
    /// The engine's picker: all of it in its own way of picking; otherwise the position, the
    /// moves given, the list and the skips, over which the study's steps run.
    base: MovePicker<'a>,
    step: Step,
    /// How many of the refutation slots hold killers (the countermove follows them).
    killers_filled: usize,
    /// Whether the plain quiet moves have their history scores (deferred until the first of
    /// them is reached, when the staged picker scores them).
    quiets_scored: bool,
}

impl<'a> StudyPicker<'a> {
    /// A picker for a main-search node, as [`MovePicker::main`], picking the way `config` says.
    #[inline(always)]
    pub fn main(
        board: &'a Board,
        tt: Option<Move>,
        killers: [Option<Move>; MAX_KILLERS],
        counter: Option<Move>,
        config: OrderingConfig,
    ) -> StudyPicker<'a> {
        let step = if (board.in_check() && config.evasion_stage())
            || (config.staged() && config.noisy_first() && config.refutations_first())
        {
            Step::Engine
        } else if config.staged() && config.noisy_first() {
            Step::TtMove
        } else {
            Step::GenAll
        };
        StudyPicker {
            base: MovePicker::main(board, tt, killers, counter, config),
            step,
            killers_filled: config.refutations(killers, counter).1,
            quiets_scored: true,
        }
    }

    /// A picker for a quiescence node: the engine's ([`MovePicker::qsearch`]).
    #[inline(always)]
    pub fn qsearch(board: &'a Board, tt: Option<Move>, config: OrderingConfig) -> StudyPicker<'a> {
        StudyPicker {
            base: MovePicker::qsearch(board, tt, config),
            step: Step::Engine,
            killers_filled: 0,
            quiets_scored: true,
        }
    }

    /// As [`MovePicker::set_continuations`].
    pub fn set_continuations(&mut self, continuations: Continuations) {
        self.base.set_continuations(continuations);
    }

    /// As [`MovePicker::set_threats`].
    pub fn set_threats(&mut self, threats: Bitboard) {
        self.base.set_threats(threats);
    }

    /// As [`MovePicker::skip_quiets`].
    pub fn skip_quiets(&mut self) {
        self.base.skip_quiets();
    }

    /// As [`MovePicker::skip_quiets_but_checks`].
    pub fn skip_quiets_but_checks(&mut self) {
        self.base.skip_quiets_but_checks();
    }

    /// Whether the noisy moves have been generated.
    pub fn noisy_generated(&self) -> bool {
        self.base.noisy_generated()
    }

    /// Whether the quiet moves have been generated.
    pub fn quiets_generated(&self) -> bool {
        self.base.quiets_generated()
    }

    /// The next move, or `None` when every move has been returned.
    pub fn next(&mut self, history: &Histories) -> Option<Move> {
        match self.step {
            Step::Engine => self.base.next(history),
            Step::GenAll | Step::All => self.next_unstaged(history),
            _ => self.next_in_list(history),
        }
    }

    /// The staged steps with the refutations inside the quiet list.
    fn next_in_list(&mut self, history: &Histories) -> Option<Move> {
        let p = &mut self.base;
        let board = p.board;
        loop {
            match self.step {
                Step::TtMove => {
                    self.step = Step::Generate;
                    if let Some(tt) = p.tt {
                        if board.is_legal(tt) {
                            return Some(tt);
                        }
                        p.tt = None;
                    }
                }
                Step::Generate => {
                    board.generate(GenKind::Noisy, &mut Push(&mut p.list));
                    p.noisy_generated = true;
                    p.score_from(history, 0);
                    p.noisy_end = p.list.len();
                    self.step = Step::GoodNoisy;
                }
                Step::GoodNoisy => {
                    while p.cur < p.noisy_end {
                        let sm = p.pick_best(p.noisy_end);
                        if p.tt == Some(sm.mv) {
                            continue;
                        }
                        if p.is_bad_noisy(sm.mv) {
                            p.list[p.bad_end] = sm;
                            p.bad_end += 1;
                            continue;
                        }
                        return Some(sm.mv);
                    }
                    self.step = Step::GenQuiets;
                }
                Step::GenQuiets => {
                    if matches!(p.skip, QuietSkip::All) {
                        self.step = Step::BadNoisy;
                        p.cur = 0;
                        continue;
                    }
                    p.cur = p.list.len();
                    let start = p.cur;
                    board.generate(GenKind::Quiet, &mut Push(&mut p.list));
                    p.quiets_generated = true;
                    self.step = Step::Quiets;
                    if matches!(p.skip, QuietSkip::None) {
                        // The refutations now, the plain quiets once the refutations have been
                        // searched (as when they come first): both placements see the same
                        // history and search the same tree.
                        self.quiets_scored = false;
                        for i in start..p.list.len() {
                            let slot = p.refutations.iter().position(|&r| r == Some(p.list[i].mv));
                            let score = slot.map_or(0, |slot| refutation_score(slot, self.killers_filled));
                            p.list[i].key = key(score, i - start);
                        }
                    }
                }
                Step::Quiets => {
                    while matches!(p.skip, QuietSkip::ButChecks(_)) && p.cur < p.list.len() {
                        let mv = p.list[p.cur].mv;
                        p.cur += 1;
                        if !p.skipped(mv) && !p.is_returned(mv) {
                            return Some(mv);
                        }
                    }
                    while matches!(p.skip, QuietSkip::None) && p.cur < p.list.len() {
                        let sm = p.pick_best(p.list.len());
                        if !self.quiets_scored && !p.refutations.contains(&Some(sm.mv)) {
                            p.cur -= 1;
                            self.quiets_scored = score_plain_quiets(p, history);
                            continue;
                        }
                        if p.is_returned(sm.mv) {
                            continue;
                        }
                        return Some(sm.mv);
                    }
                    self.step = Step::BadNoisy;
                    p.cur = 0;
                }
                Step::BadNoisy => {
                    if p.cur < p.bad_end {
                        p.cur += 1;
                        return Some(p.list[p.cur - 1].mv);
                    }
                    self.step = Step::Done;
                }
                _ => return None,
            }
        }
    }

    /// The unstaged picker's next move: every move generated and scored at the first call,
    /// then picked best first.
    fn next_unstaged(&mut self, history: &Histories) -> Option<Move> {
        if self.step == Step::GenAll {
            self.gen_all(history);
            self.step = Step::All;
        }
        let p = &mut self.base;
        while p.cur < p.list.len() {
            let sm = p.pick_best(p.list.len());
            if !self.quiets_scored && sm.key < key(KILLER_SCORE / 2, 255) && sm.key > key(BAD_NOISY / 2, 0) {
                // The first plain quiet: everything ranked above it is done, so this is when
                // the staged picker would score the quiets. Score them now, with the history
                // as it is now, and pick again.
                p.cur -= 1;
                self.quiets_scored = score_plain_quiets(p, history);
                continue;
            }
            if p.skipped(sm.mv) && p.tt != Some(sm.mv) {
                continue;
            }
            return Some(sm.mv);
        }
        self.step = Step::Done;
        None
    }

    /// Unstaged: generates and scores everything so that picking by key gives exactly the
    /// staged order.
    fn gen_all(&mut self, history: &Histories) {
        let p = &mut self.base;
        let board = p.board;
        p.noisy_generated = true;
        p.quiets_generated = true;
        if !p.config.noisy_first() {
            board.generate(GenKind::All, &mut Push(&mut p.list));
            for i in 0..p.list.len() {
                let mv = p.list[i].mv;
                let slot = p.refutations.iter().position(|&r| r == Some(mv)).filter(|_| !p.config.refutations_first());
                let score = if p.tt == Some(mv) {
                    TT_SCORE
                } else if mv.is_noisy() {
                    p.noisy_score(history, mv)
                } else if let Some(slot) = slot {
                    refutation_score(slot, self.killers_filled)
                } else {
                    p.quiet_score(history, mv)
                };
                p.list[i].key = key(score, i);
            }
            return; // one list in generator order: nothing is deferred
        }
        board.generate(GenKind::Noisy, &mut Push(&mut p.list));
        let noisy_end = p.list.len();
        for i in 0..noisy_end {
            let mv = p.list[i].mv;
            let base = if p.is_bad_noisy(mv) { BAD_NOISY } else { GOOD_NOISY };
            let score = if p.tt == Some(mv) { TT_SCORE } else { base + p.noisy_score(history, mv) };
            p.list[i].key = key(score, i);
        }
        board.generate(GenKind::Quiet, &mut Push(&mut p.list));
        self.quiets_scored = false;
        for i in noisy_end..p.list.len() {
            let mv = p.list[i].mv;
            let score = if p.tt == Some(mv) {
                TT_SCORE
            } else if let Some(slot) = p.refutations.iter().position(|&r| r == Some(mv)) {
                refutation_score(slot, self.killers_filled)
            } else {
                0 // scored from the history when the first plain quiet is reached
            };
            p.list[i].key = key(score, i - noisy_end);
        }
    }
}

/// The ordering score of a refutation slot: killers newest first, then the countermove.
fn refutation_score(slot: usize, killers_filled: usize) -> i32 {
    if slot < killers_filled { KILLER_SCORE - slot as i32 } else { COUNTER_SCORE }
}

/// Gives the picker's remaining plain quiet moves their history scores (deferred until the
/// first of them is reached); returns `true`, as they now are scored.
fn score_plain_quiets(p: &mut MovePicker, history: &Histories) -> bool {
    for i in p.cur..p.list.len() {
        let mv = p.list[i].mv;
        let plain = mv.is_quiet() && p.tt != Some(mv) && !p.refutations.contains(&Some(mv));
        if plain && p.config.history() {
            // The generation index is recovered from the key, so ties keep generator order.
            let index = 255 - p.list[i].key.rem_euclid(256) as usize;
            p.list[i].key = key(p.quiet_score(history, mv), index);
        }
    }
    true
}
