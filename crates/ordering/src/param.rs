//! Tunable parameters: the [`Param`] type, shared with `cutoff-search` (which declares the
//! search's own), and the move picker's parameters.

#[cfg(feature = "tune")]
use core::sync::atomic::{AtomicI32, Ordering};

/// A tunable parameter of the search or the move picker: an integer with a default and a
/// range. In a normal build it is a constant ([`Param::get`] folds to its default); with the
/// `tune` feature (of this crate, which `cutoff-search/tune` turns on) it holds a value that
/// a tuner sets at run time.
///
/// ```
/// use cutoff_ordering::Param;
/// static MARGIN: Param = Param::new("MARGIN", 80, 40, 150, 6.0);
/// assert!(MARGIN.min <= MARGIN.default && MARGIN.default <= MARGIN.max);
/// assert_eq!(MARGIN.get(), 80); // unless set in a `tune` build
/// ```
#[derive(Debug)]
pub struct Param {
    /// The name, as the UCI option and in the SPSA configuration.
    pub name: &'static str,
    /// The value of normal builds.
    pub default: i32,
    /// The smallest value a tuner may try.
    pub min: i32,
    /// The largest value a tuner may try.
    pub max: i32,
    /// SPSA's final perturbation size (`c_end`), about a tenth of the range.
    pub step: f64,
    #[cfg(feature = "tune")]
    value: AtomicI32,
}

impl Param {
    /// A parameter named `name` (as the UCI option and in the SPSA configuration) with its
    /// default, its range and SPSA's final perturbation size.
    #[must_use]
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32, step: f64) -> Param {
        Param {
            name,
            default,
            min,
            max,
            step,
            #[cfg(feature = "tune")]
            value: AtomicI32::new(default),
        }
    }

    /// The current value: the default, or in a `tune` build the value last set.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        #[cfg(feature = "tune")]
        return self.value.load(Ordering::Relaxed);
        #[cfg(not(feature = "tune"))]
        self.default
    }

    /// Sets the value (only in a `tune` build; elsewhere parameters are constants). The range
    /// is the caller's to check (`cutoff_search::set_param` does).
    #[cfg(feature = "tune")]
    pub fn set(&self, value: i32) {
        self.value.store(value, Ordering::Relaxed);
    }
}

/// Noisy moves: the MVV-LVA score ([`mvv_lva`](crate::mvv_lva)) is scaled by this before the
/// capture history is added (so one MVV-LVA step is worth this much history).
pub static MVV_LVA_SCALE: Param = Param::new("MVV_LVA_SCALE", 512, 128, 2048, 64.0);
/// Noisy moves: the capture history's entry is divided by this before it is added to the
/// scaled MVV-LVA score.
pub static CAPTURE_HISTORY_DIVISOR: Param = Param::new("CAPTURE_HISTORY_DIVISOR", 8, 2, 32, 1.5);

/// The move picker's tunable parameters. `cutoff_search::params` lists them after the
/// search's, for UCI options and SPSA.
///
/// ```
/// assert!(cutoff_ordering::params().iter().any(|p| p.name == "MVV_LVA_SCALE"));
/// ```
#[must_use]
pub fn params() -> &'static [&'static Param] {
    static ALL: [&Param; 2] = [&MVV_LVA_SCALE, &CAPTURE_HISTORY_DIVISOR];
    &ALL
}
