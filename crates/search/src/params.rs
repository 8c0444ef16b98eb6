//! Every search constant, named in one place: margins, limits, the reduction formula and the
//! history bonus. Depths are in plies, scores in centipawns.
//!
//! Each is a [`Param`] with a default and a tuning range. In a normal build a parameter is a
//! constant (`get` folds to its default). Built with the `tune` feature, each becomes a UCI
//! option (`setoption name RFP_MARGIN value 90`), and [`spsa_config`] prints them in the input
//! format of OpenBench's SPSA tuner, so that many machines can tune them together.
//!
//! The time-management factors at the end are plain constants: they only matter in timed
//! games, so they are tuned by matches, not SPSA on fixed nodes.

pub use cutoff_ordering::Param;

/// Why [`set_param`] refused a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has this name.
    Unknown(String),
    /// The value is outside the parameter's range.
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: i64,
        /// The smallest allowed value.
        min: i32,
        /// The largest allowed value.
        max: i32,
    },
    /// This build has fixed parameters (built without the `tune` feature).
    Fixed,
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Unknown(name) => write!(f, "no search parameter named '{name}'"),
            ParamError::OutOfRange { name, value, min, max } => {
                write!(f, "'{name}' must be from {min} to {max}, got {value}")
            }
            ParamError::Fixed => write!(f, "search parameters are fixed in this build (build with --features tune)"),
        }
    }
}

impl std::error::Error for ParamError {}

macro_rules! params {
    ($($(#[doc = $doc:literal])* $name:ident = $default:expr, $min:expr, $max:expr, $step:expr;)*) => {
        $(
            $(#[doc = $doc])*
            pub(crate) static $name: Param = Param::new(stringify!($name), $default, $min, $max, $step);
        )*
        /// Every tunable parameter: the search's in declaration order, then the move
        /// picker's ([`cutoff_ordering::params`]; a test checks that none is missing).
        static ALL: &[&Param] = &[$(&$name,)* &cutoff_ordering::MVV_LVA_SCALE, &cutoff_ordering::CAPTURE_HISTORY_DIVISOR];
    };
}

params! {
    /// Aspiration windows: the first half-width around the previous score.
    ASPIRATION_DELTA = 20, 5, 60, 3.0;
    /// Aspiration windows: the first depth searched with a window.
    ASPIRATION_MIN_DEPTH = 4, 2, 8, 0.5;
    /// Aspiration windows: once the half-width (doubled after each failure) exceeds this, the
    /// window opens fully (a score this unstable is not worth more narrow re-searches).
    ASPIRATION_MAX_DELTA = 1000, 250, 4000, 100.0;

    /// Late-move reductions: `(LMR_BASE + ln(depth) · ln(move number) · 100 / LMR_DIVISOR) / 100`.
    LMR_BASE = 75, 0, 200, 10.0;
    /// Late-move reductions: see [`LMR_BASE`] (hundredths).
    LMR_DIVISOR = 225, 150, 350, 10.0;
    /// Late-move reductions: one ply less per this much history score (`Histories::quiet_score`).
    LMR_HISTORY_DIVISOR = 8192, 2048, 16384, 500.0;
    /// Late-move reductions: the shallowest node whose later moves are reduced.
    LMR_MIN_DEPTH = 3, 2, 6, 0.5;
    /// Late-move reductions: this many plies less at PV nodes (quiet moves).
    LMR_PV = 1, 0, 3, 0.5;
    /// Late-move reductions: this many plies less for a killer or the countermove.
    LMR_KILLER = 1, 0, 3, 0.5;
    /// Late-move reductions: this many plies more when the static eval is not improving.
    LMR_NOT_IMPROVING = 1, 0, 3, 0.5;

    /// Reverse futility pruning: the deepest node it applies to.
    RFP_MAX_DEPTH = 8, 4, 12, 0.5;
    /// Reverse futility pruning: the margin per ply of depth.
    RFP_MARGIN = 80, 40, 150, 6.0;

    /// Razoring: the deepest node it applies to.
    RAZOR_MAX_DEPTH = 3, 1, 5, 0.5;
    /// Razoring: the margin per ply of depth below alpha that drops into quiescence.
    RAZOR_MARGIN = 250, 100, 500, 20.0;

    /// Null-move pruning: the shallowest node it applies to.
    NMP_MIN_DEPTH = 3, 2, 5, 0.5;
    /// Null-move pruning: the reduction is `NMP_BASE + depth / NMP_DEPTH_DIVISOR` plus up to
    /// `NMP_EVAL_MAX` more by how far the static eval is above beta (per `NMP_EVAL_DIVISOR`).
    NMP_BASE = 3, 2, 5, 0.5;
    /// Null-move pruning: see [`NMP_BASE`].
    NMP_DEPTH_DIVISOR = 4, 2, 6, 0.5;
    /// Null-move pruning: see [`NMP_BASE`].
    NMP_EVAL_DIVISOR = 200, 100, 400, 20.0;
    /// Null-move pruning: see [`NMP_BASE`].
    NMP_EVAL_MAX = 3, 1, 5, 0.5;
    /// Null-move pruning: from this depth on, a null-move cutoff is verified by a reduced search.
    NMP_VERIFY_MIN_DEPTH = 14, 8, 20, 1.0;

    /// Internal iterative reduction: the shallowest node without a TT move that is reduced.
    IIR_MIN_DEPTH = 4, 2, 8, 0.5;

    /// Late-move pruning: quiet moves after `(LMP_BASE + depth²) / (2 - improving)` are skipped.
    LMP_BASE = 3, 1, 8, 0.5;

    /// Futility pruning of quiet moves: the deepest (reduced) depth it applies to.
    FUTILITY_MAX_DEPTH = 8, 4, 12, 0.5;
    /// Futility pruning: quiets are skipped when `eval + FUTILITY_BASE + FUTILITY_MARGIN · depth <= alpha`.
    FUTILITY_BASE = 100, 0, 250, 10.0;
    /// Futility pruning: see [`FUTILITY_BASE`].
    FUTILITY_MARGIN = 120, 50, 200, 8.0;

    /// SEE pruning of quiet moves: skipped when SEE is below `-SEE_QUIET_MARGIN · depth²`.
    SEE_QUIET_MARGIN = 25, 5, 60, 3.0;
    /// SEE pruning of noisy moves: skipped when SEE is below `-SEE_NOISY_MARGIN · depth`.
    SEE_NOISY_MARGIN = 100, 40, 200, 8.0;
    /// SEE pruning: the deepest (reduced, for quiets) depth it applies to.
    SEE_MAX_DEPTH = 8, 4, 12, 0.5;

    /// Singular extensions: the shallowest node that tries one.
    SE_MIN_DEPTH = 7, 4, 10, 0.5;
    /// Singular extensions: the TT entry must be at most this much shallower than the node.
    SE_TT_DEPTH_MARGIN = 3, 1, 5, 0.5;
    /// Singular extensions: the verification bound is the TT score minus this much per ply.
    SE_BETA_MARGIN = 2, 1, 5, 0.5;

    /// Singular extensions: a verification score this far below the bound extends by two plies.
    DOUBLE_EXT_MARGIN = 20, 5, 60, 4.0;
    /// Singular extensions: at most this many double extensions on one path.
    DOUBLE_EXT_MAX = 6, 2, 12, 1.0;
    /// Recapture extension, in plies: at a PV node that the singular extension left as it was,
    /// a TT move that takes back on the square where the last move took a piece (0: off).
    RECAPTURE_EXTENSION = 1, 0, 1, 1.0;

    /// ProbCut: the shallowest node it applies to.
    PROBCUT_MIN_DEPTH = 5, 3, 8, 0.5;
    /// ProbCut: the margin above beta that a capture must reach in a shallow search.
    PROBCUT_MARGIN = 200, 100, 350, 15.0;
    /// ProbCut: the depth of the shallow search is the node's depth minus this.
    PROBCUT_REDUCTION = 4, 3, 5, 0.5;

    /// Late-move reductions: more reduction at expected cut nodes.
    LMR_CUT_NODE = 2, 0, 3, 0.5;
    /// Late-move reductions, in 1/1024 plies: more for a quiet move when the TT move is a
    /// capture (the quiets are then rarely best).
    LMR_TT_CAPTURE = 1024, 0, 3072, 128.0;
    /// Late-move reductions, in 1/1024 plies: more when the children searched so far failed
    /// high more than twice (this node's moves keep being refuted: it will likely fail low).
    LMR_CUTOFFS = 1024, 0, 3072, 128.0;
    /// Late-move reductions, in 1/1024 plies per centipawn of correction applied to the static
    /// eval (at most a ply): a position the evaluation misjudges is reduced less.
    LMR_COMPLEXITY = 12, 0, 48, 2.0;
    /// Late-move reductions, in 1/1024 plies: less for a move that gives check.
    LMR_GIVES_CHECK = 1024, 0, 3072, 128.0;

    /// Correction history: the largest correction, in centipawns.
    CORRECTION_MAX = 64, 16, 160, 8.0;
    /// Correction history: the largest weight of one update (out of 256), reached at this depth.
    CORRECTION_WEIGHT_MAX = 16, 4, 64, 3.0;

    /// Fifty-move damping: the static evaluation loses this share (in percent) of itself at a
    /// halfmove clock of 100, in proportion below it, so that a position that makes no progress
    /// looks closer to the draw the rule will call. 0 leaves the evaluation as it is.
    HALFMOVE_DAMPING = 0, 0, 80, 5.0;

    /// History pruning: the deepest (reduced) depth at which quiet moves with a bad history are skipped.
    HISTORY_PRUNING_MAX_DEPTH = 4, 1, 8, 0.5;
    /// History pruning: quiets whose history is below `-HISTORY_PRUNING_MARGIN · depth` are skipped.
    HISTORY_PRUNING_MARGIN = 3000, 1000, 8000, 250.0;

    /// Futility pruning of captures: the deepest (reduced) depth it applies to.
    CAPTURE_FUTILITY_MAX_DEPTH = 6, 2, 10, 0.5;
    /// Futility pruning of captures: skipped when `eval + CAPTURE_FUTILITY_BASE +
    /// CAPTURE_FUTILITY_MARGIN · depth + the captured piece's value <= alpha`.
    CAPTURE_FUTILITY_BASE = 200, 50, 400, 15.0;
    /// Futility pruning of captures: see [`CAPTURE_FUTILITY_BASE`].
    CAPTURE_FUTILITY_MARGIN = 200, 80, 350, 12.0;

    /// Late-move reductions of noisy moves: this many plies less than a quiet move's.
    LMR_NOISY_OFFSET = 1, 0, 3, 0.5;
    /// Late-move reductions of noisy moves: one ply less per this much capture history.
    LMR_CAPTURE_HISTORY_DIVISOR = 6144, 2048, 16384, 500.0;
    /// Late-move reductions of noisy moves: this many plies less at PV nodes.
    LMR_NOISY_PV = 1, 0, 3, 0.5;
    /// Late-move reductions of noisy moves: this many plies more at expected cut nodes.
    LMR_NOISY_CUT_NODE = 1, 0, 3, 0.5;

    /// Re-search after a reduced move beat alpha: one ply deeper when its score beat the best
    /// so far by more than `DEEPER_MARGIN + 2 · depth`...
    DEEPER_MARGIN = 40, 10, 100, 5.0;
    /// ...and one ply shallower when it beat the best by less than this.
    SHALLOWER_MARGIN = 10, 0, 40, 3.0;
    /// Re-search after a reduced move beat alpha: how many plies deeper (by [`DEEPER_MARGIN`])...
    RESEARCH_DEEPER = 1, 0, 2, 0.5;
    /// ...and how many plies shallower (by [`SHALLOWER_MARGIN`]).
    RESEARCH_SHALLOWER = 1, 0, 2, 0.5;

    /// Tablebases: a WDL result goes into the TT this many plies deeper than the node, so
    /// that searches a little deeper still take it (it is exact at any depth).
    TB_DEPTH_BONUS = 6, 0, 12, 1.0;

    /// Quiescence: the safety margin of delta pruning.
    DELTA_MARGIN = 200, 50, 400, 15.0;

    /// History bonus after a cutoff: `min(HISTORY_BONUS_QUADRATIC · d² + HISTORY_BONUS_LINEAR · d, HISTORY_BONUS_MAX)`.
    HISTORY_BONUS_QUADRATIC = 16, 4, 32, 2.0;
    /// History bonus: see [`HISTORY_BONUS_QUADRATIC`].
    HISTORY_BONUS_LINEAR = 32, 0, 128, 8.0;
    /// History bonus: see [`HISTORY_BONUS_QUADRATIC`].
    HISTORY_BONUS_MAX = 1600, 800, 3200, 100.0;
}

/// The history bonus (and malus) for a cutoff at `depth`.
pub(crate) fn history_bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_QUADRATIC.get() * depth * depth + HISTORY_BONUS_LINEAR.get() * depth).min(HISTORY_BONUS_MAX.get())
}

/// One ply in the units of [`lmr_reduction_fine`].
pub(crate) const ONE_PLY: i32 = 1024;

/// The late-move reduction of move number `moves` (1-based) at `depth` before adjustments, in
/// 1/1024 plies ([`ONE_PLY`]), so that the adjustments of the search add up before they are
/// rounded to whole plies; divided by [`ONE_PLY`] it is the reduction in plies.
#[inline(always)]
pub(crate) fn lmr_reduction_fine(depth: i32, moves: usize) -> i32 {
    #[cfg(not(feature = "tune"))]
    {
        static TABLE: std::sync::LazyLock<[[i32; 64]; 64]> = std::sync::LazyLock::new(|| {
            let mut t = [[0; 64]; 64];
            for (d, row) in t.iter_mut().enumerate() {
                for (m, r) in row.iter_mut().enumerate() {
                    *r = lmr_formula_fine(d as i32, m);
                }
            }
            t
        });
        TABLE[depth.clamp(0, 63) as usize][moves.min(63)]
    }
    #[cfg(feature = "tune")]
    lmr_formula_fine(depth.clamp(0, 63), moves.min(63))
}

fn lmr_formula_fine(depth: i32, moves: usize) -> i32 {
    if depth < 1 || moves < 1 {
        return 0;
    }
    let product = f64::from(depth).ln() * (moves as f64).ln();
    let plies = (f64::from(LMR_BASE.get()) + product * 100.0 * 100.0 / f64::from(LMR_DIVISOR.get())) / 100.0;
    (plies * f64::from(ONE_PLY)) as i32
}

/// Every tunable parameter: the search's, in declaration order, then the move picker's
/// ([`cutoff_ordering::params`]).
///
/// ```
/// let names: Vec<_> = cutoff_search::params().iter().map(|p| p.name).collect();
/// assert!(names.contains(&"LMP_BASE"));
/// assert!(names.contains(&"MVV_LVA_SCALE")); // the picker's
/// ```
pub fn params() -> &'static [&'static Param] {
    ALL
}

/// Sets a search parameter by name (a `tune` build; other builds answer [`ParamError::Fixed`]).
///
/// ```
/// use cutoff_search::{ParamError, set_param};
/// assert!(matches!(set_param("NO_SUCH_THING", 1), Err(ParamError::Unknown(_))));
/// ```
pub fn set_param(name: &str, value: i64) -> Result<(), ParamError> {
    let param =
        ALL.iter().find(|p| p.name.eq_ignore_ascii_case(name)).ok_or_else(|| ParamError::Unknown(name.to_owned()))?;
    if value < i64::from(param.min) || value > i64::from(param.max) {
        return Err(ParamError::OutOfRange { name: param.name, value, min: param.min, max: param.max });
    }
    #[cfg(feature = "tune")]
    {
        param.set(value as i32);
        Ok(())
    }
    #[cfg(not(feature = "tune"))]
    Err(ParamError::Fixed)
}

/// The parameters in the input format of OpenBench's SPSA tuner, one a line:
/// `NAME, int, default, min, max, c_end, r_end`.
///
/// ```
/// let config = cutoff_search::spsa_config();
/// assert!(config.lines().any(|l| l.starts_with("RFP_MARGIN, int, ")));
/// ```
pub fn spsa_config() -> String {
    let mut out = String::new();
    for p in ALL {
        out.push_str(&format!("{}, int, {}, {}, {}, {}, 0.002\n", p.name, p.default, p.min, p.max, p.step));
    }
    out
}

/// Quiescence: in check this deep into quiescence, the static eval stands (a bound on the
/// tree that chains of checking captures could otherwise grow without limit).
pub(crate) const QS_MAX_EVASION_PLY: u32 = 6;
/// A `stop` or time limit ends the search once the first root move of depth 1 has a score,
/// or after this many nodes, whichever comes first (then the first root move is played with
/// the static eval as its score).
pub(crate) const STOP_GRACE_NODES: u64 = 8192;
/// The main thread looks at the clock and the node count of all threads every this many
/// nodes: 256 nodes are about 0.3 ms at the network's speed (0.1 ms with the hand-crafted
/// evaluation), and reading the clock that often costs nothing measurable: `cutoff bench 6`
/// under callgrind ran 1,084,866,595 instructions against 1,084,782,291 with 1024 (+0.008 %).
pub(crate) const CHECK_LIMITS_EVERY: u64 = 256;
/// The main thread reports the root move it is searching (`info currmove`) once the search
/// has run this long: earlier the lines come too fast to be read and only cost output.
pub(crate) const CURRMOVE_DELAY: std::time::Duration = std::time::Duration::from_millis(3000);

/// Time management: with a budget and only one legal root move, the search stops after this
/// depth (unless pondering): the move is forced, and a few plies still give a score and a
/// ponder move to show.
pub(crate) const FORCED_MOVE_DEPTH: u32 = 6;
/// Time management: the soft-limit factor by how many iterations in a row had the same best
/// move (0, 1, 2, ... more).
pub(crate) const TM_STABILITY: [f64; 5] = [2.0, 1.3, 1.0, 0.85, 0.75];
/// Time management: a score drop of this much (or more) since the previous iteration...
pub(crate) const TM_SCORE_DROP_CAP: i32 = 100;
/// ...stretches the soft limit by this fraction.
pub(crate) const TM_SCORE_DROP_WEIGHT: f64 = 0.5;
/// Time management: the soft limit scales by `(TM_NODE_SHARE_BASE - share) · TM_NODE_SHARE_SCALE`,
/// where `share` is the best move's fraction of the nodes searched.
pub(crate) const TM_NODE_SHARE_BASE: f64 = 1.5;
/// Time management: see [`TM_NODE_SHARE_BASE`].
pub(crate) const TM_NODE_SHARE_SCALE: f64 = 1.35;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for p in ALL {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.step > 0.0, "{}", p.name);
            assert!(names.insert(p.name), "{} twice", p.name);
        }
    }

    #[test]
    fn every_picker_parameter_is_listed() {
        for p in cutoff_ordering::params() {
            assert!(ALL.iter().any(|q| core::ptr::eq(*q, *p)), "{} is missing from ALL", p.name);
        }
    }

    #[test]
    fn the_reduction_table_matches_the_formula() {
        let lmr_reduction = |depth, moves| lmr_reduction_fine(depth, moves) / ONE_PLY;
        assert_eq!(lmr_reduction(1, 1), 0);
        assert_eq!(lmr_reduction(0, 10), 0);
        // 0.75 + ln 10 · ln 20 / 2.25 = 3.82...
        assert_eq!(lmr_reduction(10, 20), 3);
        assert_eq!(lmr_reduction(200, 500), lmr_reduction(63, 63));
    }

    #[test]
    fn spsa_lines_have_seven_fields() {
        let config = spsa_config();
        assert_eq!(config.lines().count(), ALL.len());
        assert!(config.lines().all(|l| l.split(", ").count() == 7));
    }

    #[test]
    fn setting_checks_name_and_range() {
        assert_eq!(set_param("nope", 1), Err(ParamError::Unknown("nope".into())));
        let err = set_param("RFP_MARGIN", 10_000).unwrap_err();
        assert!(matches!(err, ParamError::OutOfRange { name: "RFP_MARGIN", .. }));
    }
}
