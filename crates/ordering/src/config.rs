//! The ordering's switches: which heuristics a picker uses, read by the picker, the search and
//! the ordering study.

use cutoff_board::Move;

use crate::MAX_KILLERS;
#[cfg(doc)]
use crate::MovePicker;
use crate::picker::Slots;

crate::study_switches! {
    /// Which ordering heuristics the picker uses. [`OrderingConfig::FULL`] is what the engine
    /// plays with, and in normal builds the only value: the switches are constants that fold
    /// away. With the `study` feature they are fields, switchable at run time so that the
    /// effect of each can be measured (`cargo xtask ordering`).
    ///
    /// `noisy_first`, `staged` and `refutations_first` choose how the study's picker
    /// (`StudyPicker`, feature `study`) picks; [`MovePicker`] always picks the staged way they
    /// describe when on, and reads the other switches.
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
        /// (no ordering at all when every other switch is off too); staging needs it on. Read
        /// by the study's picker.
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
        /// tree. Read by the study's picker.
        staged: bool = true,
        /// Verify killers and countermove with `is_legal` and try them before generating quiet
        /// moves. Off: they are found and scored inside the generated quiet list (same order).
        /// Read by the study's picker.
        refutations_first: bool = true,
        /// In check, use one evasion stage (all evasions, captures by MVV-LVA then quiets by
        /// history). Off: the normal stages, fed with the evasion-restricted generator.
        evasion_stage: bool = true,
    }
}

impl OrderingConfig {
    /// The refutation slots a picker tries at a main-search node: the first
    /// [`OrderingConfig::killers`] killers without repeats, then the countermove (with
    /// [`OrderingConfig::countermove`]) unless it repeats one; and how many slots are killers.
    #[inline(always)]
    pub(crate) fn refutations(self, killers: [Option<Move>; MAX_KILLERS], counter: Option<Move>) -> (Slots, usize) {
        let mut slots: Slots = [None; MAX_KILLERS + 1];
        let used = (self.killers() as usize).min(MAX_KILLERS);
        let mut n = 0;
        for killer in killers.into_iter().take(used).flatten() {
            if !slots[..n].contains(&Some(killer)) {
                slots[n] = Some(killer);
                n += 1;
            }
        }
        if self.countermove()
            && let Some(counter) = counter
            && !slots[..n].contains(&Some(counter))
        {
            slots[n] = Some(counter);
        }
        (slots, n)
    }
}
