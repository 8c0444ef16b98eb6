//! Converting EPD training files into game records.
//!
//! Each EPD line becomes a game of no moves: its start position is the EPD position, its
//! result the line's result, and the terminator carries the line's score (or
//! [`NO_SCORE`](crate::format::NO_SCORE) when the line has none). The lines read are those of the
//! team's tuning data (`data/tuning/` of the shared data):
//!
//! ```text
//! 2r5/p5kp/4p1p1/p2b4/P2R4/6P1/2r2PP1/3R2K1 w - - ce -448; c9 "0-1";
//! 5r2/7k/2p5/4n2p/4r1p1/8/P1N3PP/2RR2K1 b - - c9 "1/2-1/2";
//! ```
//!
//! * the position: the 4 FEN fields of EPD (placement, side to move, castling, en passant),
//!   optionally followed by the two FEN clocks; the `hmvc` and `fmvn` operations set the clocks
//!   too;
//! * `ce N`: the score in centipawns **from the side to move's point of view** (the EPD
//!   convention), stored clamped to ±32000 ([`encode_score`]);
//! * `c9 "1-0"` (or `"0-1"`, `"1/2-1/2"`; `1.0`, `0.5`, `0.0` are read too): the game result
//!   **from White's point of view**. Required: a position without a result is an error.
//!
//! **Positions without `ce`** (all of `selfplay-quiet-labeled.epd`) are kept, with no score:
//! [`TrainingPosition::score`](crate::TrainingPosition::score) is `None` for them, and a trainer
//! that blends score and result uses the result alone. Dropping them would throw away a
//! differently made (Stockfish-played) set; a trainer that wants only scored positions skips the
//! `None`s. Other operations (`bm`, `id`, `c0`, ...) are ignored. Empty lines and lines starting
//! with `#` are skipped.

use std::fmt;
use std::io::{self, BufRead, Write};

use cutoff_board::{Board, CastlingMode, ParseFenError};

use crate::format::{GameRecord, GameResult, GameWriter, encode_score};

/// What is wrong with an EPD line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EpdError {
    /// The position is not a valid FEN/EPD position.
    Fen(ParseFenError),
    /// The line has fewer than the 4 position fields.
    MissingFields,
    /// No `c9` result operation.
    MissingResult,
    /// A `c9` operand that is no result.
    BadResult(String),
    /// A `ce` operand that is no integer.
    BadScore(String),
    /// An `hmvc` or `fmvn` operand that is no clock value.
    BadClock(String),
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::Fen(e) => write!(f, "bad position: {e}"),
            EpdError::MissingFields => f.write_str("the line has fewer than 4 position fields"),
            EpdError::MissingResult => f.write_str("no result (c9 \"1-0\", \"0-1\" or \"1/2-1/2\")"),
            EpdError::BadResult(s) => write!(f, "bad result {s:?} (expected 1-0, 0-1 or 1/2-1/2)"),
            EpdError::BadScore(s) => write!(f, "bad score {s:?} (expected an integer: ce N)"),
            EpdError::BadClock(s) => write!(f, "bad clock value {s:?}"),
        }
    }
}

impl std::error::Error for EpdError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EpdError::Fen(e) => Some(e),
            _ => None,
        }
    }
}

/// Why an EPD file could not be converted.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConvertError {
    /// Reading the input or writing the output failed.
    Io(io::Error),
    /// A line could not be read.
    Line {
        /// The line number, from 1.
        line: u64,
        /// What is wrong with it.
        error: EpdError,
    },
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Io(e) => write!(f, "{e}"),
            ConvertError::Line { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl std::error::Error for ConvertError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConvertError::Io(e) => Some(e),
            ConvertError::Line { error, .. } => Some(error),
        }
    }
}

impl From<io::Error> for ConvertError {
    fn from(e: io::Error) -> ConvertError {
        ConvertError::Io(e)
    }
}

/// One EPD training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpdPosition {
    /// The position.
    pub board: Board,
    /// The `ce` score (side to move's point of view, clamped to ±32000), if the line has one.
    pub score: Option<i16>,
    /// The `c9` result (White's point of view).
    pub result: GameResult,
}

impl EpdPosition {
    /// The position as a game record of no moves (its score in the terminator).
    pub fn to_record(&self) -> GameRecord {
        let mut record = GameRecord::new(self.board, self.result);
        record.set_final_score(self.score);
        record
    }
}

/// Reads one EPD line; `Ok(None)` for an empty line or a `#` comment.
///
/// ```
/// use cutoff_board::CastlingMode;
/// use cutoff_datagen::GameResult;
/// use cutoff_datagen::epd::parse_epd_line;
/// let line = r#"2r5/p5kp/4p1p1/p2b4/P2R4/6P1/2r2PP1/3R2K1 w - - ce -448; c9 "0-1";"#;
/// let p = parse_epd_line(line, CastlingMode::Standard).unwrap().unwrap();
/// assert_eq!((p.score, p.result), (Some(-448), GameResult::BlackWin));
/// ```
pub fn parse_epd_line(line: &str, mode: CastlingMode) -> Result<Option<EpdPosition>, EpdError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    // The first four fields are the position; then maybe the two clocks; then operations.
    let mut rest = line;
    let mut fields: Vec<&str> = Vec::with_capacity(6);
    for _ in 0..4 {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if end == 0 {
            return Err(EpdError::MissingFields);
        }
        // A field may end with the `;` of an operation-less line.
        fields.push(rest[..end].trim_end_matches(';'));
        rest = &rest[end..];
    }
    for _ in 0..2 {
        let trimmed = rest.trim_start();
        let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let token = &trimmed[..end];
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            fields.push(token);
            rest = &trimmed[end..];
        } else {
            break;
        }
    }
    let (mut score, mut result, mut halfmove, mut fullmove) = (None, None, None, None);
    for op in rest.split(';') {
        let op = op.trim();
        if op.is_empty() {
            continue;
        }
        let (opcode, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let operand = operand.trim().trim_matches('"');
        match opcode {
            "ce" => score = Some(operand.parse::<i32>().map_err(|_| EpdError::BadScore(operand.to_string()))?),
            "c9" => result = Some(parse_result(operand)?),
            "hmvc" => halfmove = Some(operand.parse::<u16>().map_err(|_| EpdError::BadClock(operand.to_string()))?),
            "fmvn" => fullmove = Some(operand.parse::<u16>().map_err(|_| EpdError::BadClock(operand.to_string()))?),
            _ => {}
        }
    }
    let result = result.ok_or(EpdError::MissingResult)?;
    let mut fen = fields.join(" ");
    if fields.len() == 4 {
        fen.push_str(&format!(" {} {}", halfmove.unwrap_or(0), fullmove.unwrap_or(1)));
    }
    let board = Board::from_fen(&fen, mode).map_err(EpdError::Fen)?;
    Ok(Some(EpdPosition { board, score: score.map(encode_score), result }))
}

fn parse_result(text: &str) -> Result<GameResult, EpdError> {
    match text {
        "1-0" | "1.0" | "1" => Ok(GameResult::WhiteWin),
        "0-1" | "0.0" | "0" => Ok(GameResult::BlackWin),
        "1/2-1/2" | "0.5" | "1/2" => Ok(GameResult::Draw),
        _ => Err(EpdError::BadResult(text.to_string())),
    }
}

/// Counts of a conversion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConvertStats {
    /// Positions written (one game each).
    pub positions: u64,
    /// Of which with a `ce` score.
    pub scored: u64,
}

/// Converts every line of `input` into a one-position game written to `output` (which must
/// have its header already: [`GameWriter::new`]). Stops at the first bad line.
///
/// ```
/// use cutoff_board::CastlingMode;
/// use cutoff_datagen::{GameReader, GameWriter, epd::convert_epd};
/// let epd = "8/4k3/7R/8/8/4KP2/P7/8 b - - ce -854; c9 \"1-0\";\n\
///            5r2/7k/2p5/4n2p/4r1p1/8/P1N3PP/2RR2K1 b - - c9 \"1/2-1/2\";\n";
/// let mut writer = GameWriter::new(Vec::new()).unwrap();
/// let stats = convert_epd(epd.as_bytes(), &mut writer, CastlingMode::Standard).unwrap();
/// assert_eq!((stats.positions, stats.scored), (2, 1));
/// let bytes = writer.into_inner();
/// let games: Vec<_> = GameReader::new(&bytes[..]).unwrap().map(Result::unwrap).collect();
/// assert_eq!(games[0].final_score(), Some(-854));
/// assert_eq!(games[1].final_score(), None);
/// ```
pub fn convert_epd<R: BufRead, W: Write>(
    input: R,
    output: &mut GameWriter<W>,
    mode: CastlingMode,
) -> Result<ConvertStats, ConvertError> {
    let mut stats = ConvertStats::default();
    for (index, line) in input.lines().enumerate() {
        let line = line?;
        let parsed =
            parse_epd_line(&line, mode).map_err(|error| ConvertError::Line { line: index as u64 + 1, error })?;
        if let Some(position) = parsed {
            output.write_game(&position.to_record())?;
            stats.positions += 1;
            stats.scored += u64::from(position.score.is_some());
        }
    }
    Ok(stats)
}
