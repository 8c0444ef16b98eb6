//! The ordering study's modes (feature `study`): the unstaged picker, which generates and
//! scores every move up front and picks them in the staged order, and the quiet list with
//! the killers and countermove scored inside it. Each searches exactly the engine's tree
//! (`crates/ordering/tests/picker.rs` checks the order; `cargo xtask ordering` prints the
//! node counts side by side), so that the study times the staging alone.

use cutoff_board::{GenKind, Move};

use super::{GOOD_NOISY, MovePicker, OrderingConfig, Push, Stage, Step, key};
use crate::Histories;

const TT_SCORE: i32 = 4_000_000;
const KILLER_SCORE: i32 = 1_500_000;
const COUNTER_SCORE: i32 = 1_400_000;
const BAD_NOISY: i32 = -2_000_000;

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

impl MovePicker<'_> {
    /// The unstaged mode's next move: every move generated and scored at the first call, then
    /// picked best first.
    pub(super) fn next_unstaged(&mut self, history: &Histories) -> Option<Move> {
        if self.stage == Step::GenAll {
            self.gen_all(history);
            self.stage = Step::All;
        }
        while self.cur < self.list.len() {
            let sm = self.pick_best(self.list.len());
            if !self.quiets_scored && sm.key < key(KILLER_SCORE / 2, 255) && sm.key > key(BAD_NOISY / 2, 0) {
                // The first plain quiet: everything ranked above it is done, so this is when
                // the staged picker would score the quiets. Score them now, with the history
                // as it is now, and pick again.
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
        None
    }

    /// Unstaged mode: generate and score everything so that picking by key gives exactly the
    /// staged order.
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
                } else if let Some(slot) = self.refutation_slot(mv) {
                    self.refutation_score(slot)
                } else if self.config.history() {
                    history.quiet_score(board, mv, &self.continuations, self.threats)
                } else {
                    0
                };
                self.list[i].key = key(score, i);
            }
            return; // one list in generator order: nothing is deferred
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
        self.quiets_scored = false;
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

    /// The refutation slot of `mv` when the refutations are scored inside the quiet list.
    fn refutation_slot(&self, mv: Move) -> Option<usize> {
        if self.config.refutations_first() {
            return None;
        }
        self.refutations.iter().position(|&r| r == Some(mv))
    }

    /// The ordering score of a refutation slot: killers newest first, then the countermove.
    fn refutation_score(&self, slot: usize) -> i32 {
        if slot < self.killers_filled { KILLER_SCORE - slot as i32 } else { COUNTER_SCORE }
    }

    /// With the refutations inside the quiet list: scores the refutations in `start..` and
    /// leaves the plain quiets to be scored once the refutations have been searched (as when
    /// they come first), so that both placements see the same history and search the same
    /// tree.
    pub(super) fn defer_quiets(&mut self, start: usize) {
        self.quiets_scored = false;
        for i in start..self.list.len() {
            let mv = self.list[i].mv;
            let score = self.refutation_slot(mv).map_or(0, |slot| self.refutation_score(slot));
            self.list[i].key = key(score, i - start);
        }
    }

    /// Gives the remaining plain quiet moves their history scores (deferred until the first
    /// of them is reached).
    pub(super) fn score_plain_quiets(&mut self, history: &Histories) {
        self.quiets_scored = true;
        for i in self.cur..self.list.len() {
            let mv = self.list[i].mv;
            let plain = mv.is_quiet() && self.tt != Some(mv) && !self.refutations.contains(&Some(mv));
            if plain && self.config.history() {
                // The generation index is recovered from the key, so ties keep generator order.
                let index = 255 - self.list[i].key.rem_euclid(256) as usize;
                self.list[i].key = key(history.quiet_score(self.board, mv, &self.continuations, self.threats), index);
            }
        }
    }
}
