//! The UCI options and their parsing.

use std::fmt;

pub(crate) const DEFAULT_HASH: usize = 16;

/// The options Cutoff offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EngineOption {
    Hash,
    Threads,
    MultiPv,
    Ponder,
    MoveOverhead,
    Chess960,
    ClearHash,
    ShowWdl,
    LimitStrength,
    Elo,
    OwnBook,
    BookFile,
    SyzygyPath,
    SyzygyProbeDepth,
    SyzygyProbeLimit,
    Syzygy50MoveRule,
    UseNnue,
    EvalFile,
}

pub(crate) const OPTIONS: [EngineOption; 18] = [
    EngineOption::Hash,
    EngineOption::Threads,
    EngineOption::MultiPv,
    EngineOption::Ponder,
    EngineOption::MoveOverhead,
    EngineOption::Chess960,
    EngineOption::ClearHash,
    EngineOption::ShowWdl,
    EngineOption::LimitStrength,
    EngineOption::Elo,
    EngineOption::OwnBook,
    EngineOption::BookFile,
    EngineOption::SyzygyPath,
    EngineOption::SyzygyProbeDepth,
    EngineOption::SyzygyProbeLimit,
    EngineOption::Syzygy50MoveRule,
    EngineOption::UseNnue,
    EngineOption::EvalFile,
];

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

enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// A string whose default is empty (`<empty>` in UCI).
    String,
}

impl EngineOption {
    pub(crate) fn name(self) -> &'static str {
        match self {
            EngineOption::Hash => "Hash",
            EngineOption::Threads => "Threads",
            EngineOption::MultiPv => "MultiPV",
            EngineOption::Ponder => "Ponder",
            EngineOption::MoveOverhead => "Move Overhead",
            EngineOption::Chess960 => "UCI_Chess960",
            EngineOption::ClearHash => "Clear Hash",
            EngineOption::ShowWdl => "UCI_ShowWDL",
            EngineOption::LimitStrength => "UCI_LimitStrength",
            EngineOption::Elo => "UCI_Elo",
            EngineOption::OwnBook => "OwnBook",
            EngineOption::BookFile => "BookFile",
            EngineOption::SyzygyPath => "SyzygyPath",
            EngineOption::SyzygyProbeDepth => "SyzygyProbeDepth",
            EngineOption::SyzygyProbeLimit => "SyzygyProbeLimit",
            EngineOption::Syzygy50MoveRule => "Syzygy50MoveRule",
            EngineOption::UseNnue => "UseNNUE",
            EngineOption::EvalFile => "EvalFile",
        }
    }

    fn kind(self) -> Kind {
        match self {
            EngineOption::Hash => Kind::Spin { default: DEFAULT_HASH as i64, min: 1, max: 65_536 },
            EngineOption::Threads => Kind::Spin { default: 1, min: 1, max: 256 },
            EngineOption::MultiPv => Kind::Spin { default: 1, min: 1, max: 256 },
            EngineOption::Ponder => Kind::Check { default: false },
            EngineOption::MoveOverhead => Kind::Spin { default: 30, min: 0, max: 5_000 },
            EngineOption::Chess960 => Kind::Check { default: false },
            EngineOption::ClearHash => Kind::Button,
            EngineOption::ShowWdl => Kind::Check { default: false },
            EngineOption::LimitStrength => Kind::Check { default: false },
            EngineOption::Elo => Kind::Spin {
                default: crate::strength::DEFAULT_ELO,
                min: crate::strength::MIN_ELO,
                max: crate::strength::MAX_ELO,
            },
            EngineOption::OwnBook => Kind::Check { default: false },
            EngineOption::BookFile => Kind::String,
            // Stockfish's names, ranges and defaults.
            EngineOption::SyzygyPath => Kind::String,
            EngineOption::SyzygyProbeDepth => Kind::Spin { default: 1, min: 1, max: 100 },
            EngineOption::SyzygyProbeLimit => Kind::Spin { default: 7, min: 0, max: 7 },
            EngineOption::Syzygy50MoveRule => Kind::Check { default: true },
            EngineOption::UseNnue => Kind::Check { default: crate::network::USE_NNUE_DEFAULT },
            // `<empty>`: the network embedded in the binary.
            EngineOption::EvalFile => Kind::String,
        }
    }

    pub(crate) fn uci_line(self) -> String {
        let name = self.name();
        match self.kind() {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Button => format!("option name {name} type button"),
            Kind::String => format!("option name {name} type string default <empty>"),
        }
    }

    /// The range of a spin option.
    #[cfg(test)]
    pub(crate) fn range(self) -> Option<(i64, i64)> {
        match self.kind() {
            Kind::Spin { min, max, .. } => Some((min, max)),
            _ => None,
        }
    }

    /// The value `setoption` asks for. A spin value outside the declared range is clamped to
    /// it (with the [`Clamped`] note to show); a value that is not a whole number, a check value
    /// other than true or false, or a missing value is an [`OptionError`].
    pub(crate) fn parse(self, value: Option<&str>) -> Result<(OptionValue, Option<Clamped>), OptionError> {
        let name = self.name();
        match self.kind() {
            Kind::Button => Ok((OptionValue::Button, None)),
            Kind::String => {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_values() {
        let value = |opt: EngineOption, v: Option<&str>| opt.parse(v).map(|(value, _)| value);
        assert_eq!(EngineOption::Hash.parse(Some("64")), Ok((OptionValue::Spin(64), None)));
        assert_eq!(
            EngineOption::Hash.parse(Some("big")),
            Err(OptionError::NotANumber { name: "Hash", value: "big".into(), min: 1, max: 65_536 })
        );
        for not_whole in ["16.5", "1e3", "0x10", "-", "+", "--5", "5 MiB"] {
            assert!(
                matches!(EngineOption::Hash.parse(Some(not_whole)), Err(OptionError::NotANumber { .. })),
                "{not_whole}"
            );
        }
        assert_eq!(EngineOption::Hash.parse(None), Err(OptionError::Missing("Hash")));
        assert_eq!(value(EngineOption::Ponder, Some("TRUE")), Ok(OptionValue::Check(true)));
        assert!(EngineOption::Chess960.parse(Some("yes")).is_err());
        assert_eq!(value(EngineOption::ClearHash, None), Ok(OptionValue::Button));
        assert_eq!(value(EngineOption::BookFile, Some(" a b.bin ")), Ok(OptionValue::String(Some("a b.bin".into()))));
        assert_eq!(value(EngineOption::BookFile, Some("<empty>")), Ok(OptionValue::String(None)));
        assert_eq!(value(EngineOption::BookFile, None), Ok(OptionValue::String(None)));
    }

    #[test]
    fn every_spin_option_clamps_to_its_range() {
        for opt in OPTIONS {
            let Some((min, max)) = opt.range() else { continue };
            let name = opt.name();
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
        let note = EngineOption::Hash.parse(Some("999999")).unwrap().1.unwrap();
        assert_eq!(note.to_string(), "'Hash' 999999 is outside its range 1 to 65536; using 65536");
    }
}
