//! The UCI options: each is one entry of [`OPTIONS`], which gives its name, its type with its
//! default (and a spin's range), and how a value is applied. `uci` lists them in that order,
//! and `setoption` reads, checks and applies a value through the entry. A `tune` build lists
//! the search parameters after them (declared in `cutoff-search`'s `params.rs`).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use cutoff_board::{Board, CastlingMode};

use crate::network::USE_NNUE_DEFAULT;
use crate::strength::{DEFAULT_ELO, MAX_ELO, MIN_ELO};
use crate::{Uci, truncate};

pub(crate) const DEFAULT_HASH: usize = 16;

/// Every option, in the order `uci` lists them: adding an option is adding an entry here.
/// Each setter runs on the protocol thread, with no job running, after the value was read
/// and brought into range; it says what went wrong with an `info string`.
pub(crate) static OPTIONS: &[UciOption] = &[
    spin("Hash", DEFAULT_HASH as i64, 1, 65_536, Uci::set_hash),
    spin("Threads", 1, 1, 256, |uci, n| uci.update_search(|o| o.threads = n as usize)),
    spin("MultiPV", 1, 1, 256, |uci, n| uci.update_search(|o| o.multipv = n as usize)),
    check("Ponder", false, |uci, on| uci.settings.ponder = on),
    spin("Move Overhead", 30, 0, 5_000, |uci, ms| {
        uci.update_search(|o| o.move_overhead = Duration::from_millis(ms as u64))
    }),
    check("UCI_Chess960", false, Uci::set_chess960),
    button("Clear Hash", |uci| uci.with_engine(|e| e.clear_hash())),
    check("UCI_ShowWDL", false, |uci, on| uci.settings.show_wdl = on),
    check("UCI_LimitStrength", false, |uci, on| uci.strength.limit = on),
    spin("UCI_Elo", DEFAULT_ELO, MIN_ELO, MAX_ELO, |uci, elo| uci.strength.elo = elo),
    check("OwnBook", false, Uci::set_own_book),
    string("BookFile", Uci::load_book),
    // Stockfish's names, ranges and defaults.
    string("SyzygyPath", Uci::load_tablebases),
    spin("SyzygyProbeDepth", 1, 1, 100, |uci, d| uci.update_search(|o| o.syzygy.probe_depth = d as i32)),
    spin("SyzygyProbeLimit", 7, 0, 7, |uci, n| uci.update_search(|o| o.syzygy.probe_limit = n as usize)),
    check("Syzygy50MoveRule", true, |uci, on| uci.update_search(|o| o.syzygy.rule50 = on)),
    check("UseNNUE", USE_NNUE_DEFAULT, Uci::set_use_nnue),
    // `<empty>`: the network embedded in the binary.
    string("EvalFile", Uci::load_eval_file),
];

/// One UCI option: its name and its type.
pub(crate) struct UciOption {
    pub(crate) name: &'static str,
    kind: Kind,
}

/// The type of an option, with its default, a spin's range, and the function that applies a
/// value.
enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        set: fn(&mut Uci, i64),
    },
    Check {
        default: bool,
        set: fn(&mut Uci, bool),
    },
    Button {
        press: fn(&mut Uci),
    },
    /// A string whose default is empty (`<empty>` in UCI); the setter gets `None` for empty.
    String {
        set: fn(&mut Uci, Option<String>),
    },
}

const fn spin(name: &'static str, default: i64, min: i64, max: i64, set: fn(&mut Uci, i64)) -> UciOption {
    UciOption { name, kind: Kind::Spin { default, min, max, set } }
}

const fn check(name: &'static str, default: bool, set: fn(&mut Uci, bool)) -> UciOption {
    UciOption { name, kind: Kind::Check { default, set } }
}

const fn button(name: &'static str, press: fn(&mut Uci)) -> UciOption {
    UciOption { name, kind: Kind::Button { press } }
}

const fn string(name: &'static str, set: fn(&mut Uci, Option<String>)) -> UciOption {
    UciOption { name, kind: Kind::String { set } }
}

/// A value read by [`UciOption::parse`], of the option's own type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionValue {
    Spin(i64),
    Check(bool),
    Button,
    /// A string option's value; `None` for UCI's `<empty>` (or no value at all).
    String(Option<String>),
}

/// A value that cannot be used at all: the option is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionError {
    Missing(&'static str),
    NotANumber { name: &'static str, value: String, min: i64, max: i64 },
    NotABool(&'static str, String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Missing(n) => write!(f, "'{n}' needs a value"),
            OptionError::NotANumber { name, value, min, max } => {
                write!(f, "'{name}' needs a whole number from {min} to {max}, got '{value}'")
            }
            OptionError::NotABool(n, v) => write!(f, "'{n}' needs true or false, got '{v}'"),
        }
    }
}

/// A spin value outside its option's range, brought to the nearest end of the range: the one
/// rule for every spin option (the value is used, and an `info string` says so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clamped {
    pub(crate) name: &'static str,
    /// The value as it was sent (shortened), which may not even fit 64 bits.
    pub(crate) given: String,
    pub(crate) used: i64,
    pub(crate) min: i64,
    pub(crate) max: i64,
}

impl fmt::Display for Clamped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Clamped { name, given, used, min, max } = self;
        write!(f, "'{name}' {given} is outside its range {min} to {max}; using {used}")
    }
}

/// A whole number, saturated to the `i64` range when it has more digits than fit: a sign and
/// digits only, so `1e3`, `16.5` and `0x10` are not numbers.
pub(crate) fn parse_whole(text: &str) -> Option<i64> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(n);
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    whole.then_some(if negative { i64::MIN } else { i64::MAX })
}

/// The `option` lines that `uci` sends: every option of the engine in the order it declares
/// them, then, in a `tune` build, the search parameters. Tests and tools read the engine's
/// options here rather than keeping a list of their own.
///
/// ```
/// let lines: Vec<String> = cutoff_uci::option_lines().collect();
/// assert_eq!(lines[0], "option name Hash type spin default 16 min 1 max 65536");
/// assert!(lines.iter().all(|l| l.starts_with("option name ")));
/// ```
pub fn option_lines() -> impl Iterator<Item = String> {
    let params = if cfg!(feature = "tune") { cutoff_search::params() } else { &[] };
    OPTIONS.iter().map(UciOption::uci_line).chain(params.iter().map(|p| {
        let (name, default, min, max) = (p.name, p.default, p.min, p.max);
        format!("option name {name} type spin default {default} min {min} max {max}")
    }))
}

impl UciOption {
    /// The option named `name`, in any case.
    pub(crate) fn find(name: &str) -> Option<&'static UciOption> {
        OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    pub(crate) fn uci_line(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin { default, min, max, .. } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default, .. } => format!("option name {name} type check default {default}"),
            Kind::Button { .. } => format!("option name {name} type button"),
            Kind::String { .. } => format!("option name {name} type string default <empty>"),
        }
    }

    /// The range of a spin option.
    #[cfg(test)]
    pub(crate) fn range(&self) -> Option<(i64, i64)> {
        match self.kind {
            Kind::Spin { min, max, .. } => Some((min, max)),
            _ => None,
        }
    }

    /// The value `setoption` asks for. A spin value outside the declared range is clamped to
    /// it (with the [`Clamped`] note to show); a value that is not a whole number, a check value
    /// other than true or false, or a missing value is an [`OptionError`].
    pub(crate) fn parse(&self, value: Option<&str>) -> Result<(OptionValue, Option<Clamped>), OptionError> {
        let name = self.name;
        match self.kind {
            Kind::Button { .. } => Ok((OptionValue::Button, None)),
            Kind::String { .. } => {
                let v = value.map(str::trim).filter(|v| !v.is_empty() && *v != "<empty>");
                Ok((OptionValue::String(v.map(str::to_owned)), None))
            }
            Kind::Spin { min, max, .. } => {
                let v = value.map(str::trim).filter(|v| !v.is_empty()).ok_or(OptionError::Missing(name))?;
                let shown = || v.chars().take(40).collect::<String>();
                let n = parse_whole(v).ok_or_else(|| OptionError::NotANumber { name, value: shown(), min, max })?;
                let used = n.clamp(min, max);
                let clamped = (used != n).then(|| Clamped { name, given: shown(), used, min, max });
                Ok((OptionValue::Spin(used), clamped))
            }
            Kind::Check { .. } => {
                let v = value.map(str::trim).ok_or(OptionError::Missing(name))?;
                match v.to_ascii_lowercase().as_str() {
                    "true" => Ok((OptionValue::Check(true), None)),
                    "false" => Ok((OptionValue::Check(false), None)),
                    _ => Err(OptionError::NotABool(name, v.chars().take(40).collect())),
                }
            }
        }
    }

    /// Applies a value that [`UciOption::parse`] read for this option.
    fn apply(&self, uci: &mut Uci, value: OptionValue) {
        match (&self.kind, value) {
            (Kind::Spin { set, .. }, OptionValue::Spin(n)) => set(uci, n),
            (Kind::Check { set, .. }, OptionValue::Check(b)) => set(uci, b),
            (Kind::Button { press }, OptionValue::Button) => press(uci),
            (Kind::String { set }, OptionValue::String(s)) => set(uci, s),
            // `parse` reads a value of the option's own type.
            _ => {}
        }
    }
}

/// `setoption` and the setters of [`OPTIONS`] that take more than a line.
impl Uci {
    pub(crate) fn setoption(&mut self, args: &[&str]) {
        if args.first() != Some(&"name") {
            self.info("setoption: expected 'setoption name <name> [value <value>]'");
            return;
        }
        let value_at = args.iter().position(|&t| t.eq_ignore_ascii_case("value"));
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        let Some(opt) = UciOption::find(&name) else {
            if cfg!(feature = "tune") && cutoff_search::params().iter().any(|p| p.name.eq_ignore_ascii_case(&name)) {
                self.set_search_param(&name, value.as_deref());
            } else {
                self.info(&format!("setoption: unknown option '{}'", truncate(&name)));
            }
            return;
        };
        if self.jobs.running() {
            self.info(&format!("setoption: cannot change '{}' while {}", opt.name, self.jobs.doing()));
            return;
        }
        // One rule for every spin option: a value outside the range is clamped to it, with an
        // `info string`; a value that cannot be read leaves the option unchanged.
        let parsed = match opt.parse(value.as_deref()) {
            Ok((v, clamped)) => {
                if let Some(clamped) = clamped {
                    self.info(&format!("setoption: {clamped}"));
                }
                v
            }
            Err(e) => {
                self.info(&format!("setoption: {e}; '{}' unchanged", opt.name));
                return;
            }
        };
        opt.apply(self, parsed);
    }

    /// `setoption` for a search parameter (a `tune` build).
    fn set_search_param(&mut self, name: &str, value: Option<&str>) {
        if self.jobs.running() {
            self.info(&format!("setoption: cannot change '{}' while {}", truncate(name), self.jobs.doing()));
            return;
        }
        let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
            self.info(&format!("setoption: '{}' needs a value", truncate(name)));
            return;
        };
        // SPSA tuners may send fractional values: round them.
        let parsed = value
            .parse::<i64>()
            .ok()
            .or_else(|| value.parse::<f64>().ok().filter(|v| v.is_finite()).map(|v| v.round() as i64));
        match parsed {
            None => self.info(&format!("setoption: '{}' needs a number, got '{}'", truncate(name), truncate(value))),
            Some(v) => {
                if let Err(e) = cutoff_search::set_param(name, v) {
                    self.info(&format!("setoption: {e}; unchanged"));
                }
            }
        }
    }

    /// Changes the search options that `change` changes.
    fn update_search(&mut self, change: impl FnOnce(&mut cutoff_search::SearchOptions)) {
        self.with_engine(|e| {
            let mut options = e.options();
            change(&mut options);
            e.set_options(options)
        })
    }

    /// `Hash`: a new table of `mib` MiB; one that cannot be allocated leaves the old size.
    fn set_hash(&mut self, mib: i64) {
        if let Err(e) = self.with_engine(|e| e.set_hash(mib as usize)) {
            let kept = self.with_engine(|e| e.tt().size_mib());
            self.info(&format!("setoption: {e}; the hash stays at {kept} MiB (cleared)"));
        }
    }

    /// `UCI_Chess960`: re-reads the current position under the new castling rules.
    fn set_chess960(&mut self, on: bool) {
        self.settings.chess960 = on;
        let fen = self.position.board.fen().to_string();
        if let Ok(board) = Board::from_fen(&fen, CastlingMode::from_chess960(on)) {
            self.position.board = board;
        }
    }

    /// `OwnBook`: says so when there is no book to play from.
    fn set_own_book(&mut self, on: bool) {
        self.book.on = on;
        if on && self.book.book.is_none() {
            self.info("OwnBook is on but no book is loaded (set BookFile)");
        }
    }

    /// `BookFile`: loads the book at once, so a bad file is reported when it is named; on
    /// failure the previous book is dropped and play goes on without one.
    fn load_book(&mut self, path: Option<String>) {
        let Some(path) = path else {
            self.book.book = None;
            return;
        };
        match cutoff_book::Book::open(&path) {
            Ok(book) if book.is_empty() => {
                self.book.book = None;
                self.info(&format!("book {}: no entries; playing without a book", truncate(&path)))
            }
            Ok(book) => {
                if self.settings.debug {
                    self.info(&format!("book {}: {} entries", truncate(&path), book.len()));
                }
                self.book.book = Some(book);
            }
            // A file that cannot be used leaves the engine as it was.
            Err(e) => {
                let then =
                    if self.book.book.is_some() { "the current book stays in use" } else { "playing without a book" };
                self.info(&format!("book {}: {e}; {then}", truncate(&path)));
            }
        }
    }

    /// `SyzygyPath`: opens the tables at once and says with `info string` how many were
    /// found, and what was wrong (a missing directory, a truncated or corrupt file: left
    /// out). `<empty>` unloads them.
    fn load_tablebases(&mut self, path: Option<String>) {
        self.with_engine(|e| e.set_tablebases(None));
        let Some(path) = path else { return };
        let tb = cutoff_syzygy::Tablebases::open_path(&path);
        for problem in tb.problems() {
            self.info(&format!("syzygy: {}", truncate(&problem.to_string())));
        }
        if tb.num_wdl() == 0 {
            self.info(&format!("syzygy: no tablebase files found in {}; playing without tablebases", truncate(&path)));
            return;
        }
        self.info(&format!(
            "syzygy: found {} WDL and {} DTZ tables, up to {} pieces",
            tb.num_wdl(),
            tb.num_dtz(),
            tb.max_pieces()
        ));
        self.with_engine(|e| e.set_tablebases(Some(Arc::new(tb))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(name: &str) -> &'static UciOption {
        UciOption::find(name).unwrap()
    }

    #[test]
    fn parse_values() {
        let value = |name: &str, v: Option<&str>| option(name).parse(v).map(|(value, _)| value);
        assert_eq!(option("Hash").parse(Some("64")), Ok((OptionValue::Spin(64), None)));
        assert_eq!(
            option("Hash").parse(Some("big")),
            Err(OptionError::NotANumber { name: "Hash", value: "big".into(), min: 1, max: 65_536 })
        );
        for not_whole in ["16.5", "1e3", "0x10", "-", "+", "--5", "5 MiB"] {
            assert!(
                matches!(option("Hash").parse(Some(not_whole)), Err(OptionError::NotANumber { .. })),
                "{not_whole}"
            );
        }
        assert_eq!(option("Hash").parse(None), Err(OptionError::Missing("Hash")));
        assert_eq!(value("Ponder", Some("TRUE")), Ok(OptionValue::Check(true)));
        assert!(option("UCI_Chess960").parse(Some("yes")).is_err());
        assert_eq!(value("Clear Hash", None), Ok(OptionValue::Button));
        assert_eq!(value("BookFile", Some(" a b.bin ")), Ok(OptionValue::String(Some("a b.bin".into()))));
        assert_eq!(value("BookFile", Some("<empty>")), Ok(OptionValue::String(None)));
        assert_eq!(value("BookFile", None), Ok(OptionValue::String(None)));
    }

    #[test]
    fn options_are_found_in_any_case_and_named_once() {
        assert_eq!(UciOption::find("move overhead").map(|o| o.name), Some("Move Overhead"));
        assert_eq!(UciOption::find("MULTIPV").map(|o| o.name), Some("MultiPV"));
        assert!(UciOption::find("Hash ").is_none());
        for (i, a) in OPTIONS.iter().enumerate() {
            assert!(OPTIONS[i + 1..].iter().all(|b| !a.name.eq_ignore_ascii_case(b.name)), "{} twice", a.name);
        }
    }

    /// Each type's line byte for byte, as the UCI protocol writes it: GUIs and scripts read
    /// these lines. (The options themselves are the entries of [`OPTIONS`]; no list here.)
    #[test]
    fn each_type_of_option_is_written_as_uci_writes_it() {
        let lines = [
            spin("Some Spin", 16, -1, 65_536, |_, _| {}),
            check("Some Check", true, |_, _| {}),
            button("Some Button", |_| {}),
            string("Some String", |_, _| {}),
        ]
        .map(|o| o.uci_line());
        assert_eq!(
            lines,
            [
                "option name Some Spin type spin default 16 min -1 max 65536",
                "option name Some Check type check default true",
                "option name Some Button type button",
                "option name Some String type string default <empty>",
            ]
        );
    }

    /// `uci` lists the entries of [`OPTIONS`] in their order, then (in a `tune` build) the
    /// search parameters; every spin's default lies in its range.
    #[test]
    fn the_uci_lines_are_the_declared_options_in_order() {
        let lines: Vec<String> = option_lines().collect();
        let declared: Vec<String> = OPTIONS.iter().map(UciOption::uci_line).collect();
        assert_eq!(lines[..OPTIONS.len()], declared);
        let tuned = if cfg!(feature = "tune") { cutoff_search::params().len() } else { 0 };
        assert_eq!(lines.len(), OPTIONS.len() + tuned);
        for opt in OPTIONS {
            if let Kind::Spin { default, min, max, .. } = opt.kind {
                assert!(min <= default && default <= max, "{}: default {default} outside {min}..={max}", opt.name);
            }
        }
        // Names and defaults that the UCI protocol fixes and GUIs rely on.
        assert_eq!(option("Hash").uci_line(), "option name Hash type spin default 16 min 1 max 65536");
        assert_eq!(option("UCI_Chess960").uci_line(), "option name UCI_Chess960 type check default false");
    }

    #[test]
    fn every_spin_option_clamps_to_its_range() {
        for opt in OPTIONS {
            let Some((min, max)) = opt.range() else { continue };
            let name = opt.name;
            let clamped = |given: &str, used: i64| Clamped { name, given: given.into(), used, min, max };
            let at = |v: &str| opt.parse(Some(v));
            assert_eq!(at(&min.to_string()), Ok((OptionValue::Spin(min), None)), "{name}");
            assert_eq!(at(&max.to_string()), Ok((OptionValue::Spin(max), None)), "{name}");
            let below = (min - 1).to_string();
            assert_eq!(at(&below), Ok((OptionValue::Spin(min), Some(clamped(&below, min)))), "{name}");
            let above = (max + 1).to_string();
            assert_eq!(at(&above), Ok((OptionValue::Spin(max), Some(clamped(&above, max)))), "{name}");
            // Beyond 64 bits: still a whole number, still clamped.
            let huge = "99999999999999999999999";
            assert_eq!(at(huge), Ok((OptionValue::Spin(max), Some(clamped(huge, max)))), "{name}");
            let tiny = "-99999999999999999999999";
            assert_eq!(at(tiny), Ok((OptionValue::Spin(min), Some(clamped(tiny, min)))), "{name}");
        }
        let note = option("Hash").parse(Some("999999")).unwrap().1.unwrap();
        assert_eq!(note.to_string(), "'Hash' 999999 is outside its range 1 to 65536; using 65536");
    }
}
