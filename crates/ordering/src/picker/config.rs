//! What a picker is told and what it tells: its switches (which ordering heuristics it
//! uses) and the stage each move comes from.

#[cfg(doc)]
use crate::{MAX_KILLERS, MovePicker};

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

/// The stage a [`MovePicker`]'s last move came from ([`MovePicker::last_stage`]).
///
/// The picker's internal steps (generating, scoring) are private; this enum only names where
/// a returned move came from, and is `#[non_exhaustive]` so that adding a stage is not a
/// breaking change.
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
