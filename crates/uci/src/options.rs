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

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionError {
    Missing(&'static str),
    NotANumber(&'static str, String),
    OutOfRange { name: &'static str, value: i64, min: i64, max: i64 },
    NotABool(&'static str, String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Missing(n) => write!(f, "'{n}' needs a value"),
            OptionError::NotANumber(n, v) => write!(f, "'{n}' needs a whole number, got '{v}'"),
            OptionError::OutOfRange { name, value, min, max } => {
                write!(f, "'{name}' must be from {min} to {max}, got {value}")
            }
            OptionError::NotABool(n, v) => write!(f, "'{n}' needs true or false, got '{v}'"),
        }
    }
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
    pub(crate) fn range(self) -> Option<(i64, i64)> {
        match self.kind() {
            Kind::Spin { min, max, .. } => Some((min, max)),
            _ => None,
        }
    }

    pub(crate) fn parse(self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let name = self.name();
        match self.kind() {
            Kind::Button => Ok(OptionValue::Button),
            Kind::String => {
                let v = value.map(str::trim).filter(|v| !v.is_empty() && *v != "<empty>");
                Ok(OptionValue::String(v.map(str::to_owned)))
            }
            Kind::Spin { min, max, .. } => {
                let v = value.map(str::trim).filter(|v| !v.is_empty()).ok_or(OptionError::Missing(name))?;
                let n: i64 = v.parse().map_err(|_| OptionError::NotANumber(name, v.chars().take(40).collect()))?;
                if !(min..=max).contains(&n) {
                    return Err(OptionError::OutOfRange { name, value: n, min, max });
                }
                Ok(OptionValue::Spin(n))
            }
            Kind::Check { .. } => {
                let v = value.map(str::trim).ok_or(OptionError::Missing(name))?;
                match v.to_ascii_lowercase().as_str() {
                    "true" => Ok(OptionValue::Check(true)),
                    "false" => Ok(OptionValue::Check(false)),
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
        assert_eq!(EngineOption::Hash.parse(Some("64")), Ok(OptionValue::Spin(64)));
        assert!(matches!(EngineOption::Hash.parse(Some("0")), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(EngineOption::Hash.parse(Some("big")), Err(OptionError::NotANumber(..))));
        assert_eq!(EngineOption::Hash.parse(None), Err(OptionError::Missing("Hash")));
        assert_eq!(EngineOption::Ponder.parse(Some("TRUE")), Ok(OptionValue::Check(true)));
        assert!(EngineOption::Chess960.parse(Some("yes")).is_err());
        assert_eq!(EngineOption::ClearHash.parse(None), Ok(OptionValue::Button));
        assert_eq!(EngineOption::BookFile.parse(Some(" a b.bin ")), Ok(OptionValue::String(Some("a b.bin".into()))));
        assert_eq!(EngineOption::BookFile.parse(Some("<empty>")), Ok(OptionValue::String(None)));
        assert_eq!(EngineOption::BookFile.parse(None), Ok(OptionValue::String(None)));
    }
}
