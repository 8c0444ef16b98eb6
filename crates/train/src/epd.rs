//! Labelled positions as EPD lines, as the tuning sets hold them: the four FEN fields, then
//! `c9 "1-0"` (the result, White's view) and optionally `ce N` (the search score in
//! centipawns, the side to move's view).

use std::fmt;

use cutoff_board::{Board, CastlingMode, Color};

use crate::data::Position;

/// What is wrong with an EPD line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EpdError {
    /// The line has fewer than the four FEN fields.
    MissingFields,
    /// The four fields are not a position (the board's message).
    Fen(String),
    /// A `c9` operand that is no result.
    UnknownResult(String),
    /// A `ce` operand that is no number.
    BadScore(String),
    /// No `c9` operation.
    NoResult,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::MissingFields => f.write_str("fewer than four FEN fields"),
            EpdError::Fen(e) => write!(f, "bad FEN: {e}"),
            EpdError::UnknownResult(s) => write!(f, "unknown result {s:?}"),
            EpdError::BadScore(s) => write!(f, "bad ce {s:?}"),
            EpdError::NoResult => f.write_str("no c9 result"),
        }
    }
}

impl std::error::Error for EpdError {}

impl Position {
    /// Reads one EPD line: the four FEN fields (the clocks are taken as 0 and 1), `c9` with
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`, and optionally `ce N`; other operations are ignored.
    /// The labels come out from the side to move's view.
    ///
    /// ```
    /// use cutoff_train::Position;
    ///
    /// // Black to move, 150 cp worse by the search; White won.
    /// let p = Position::from_epd("r3k2r/ppp2ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R b KQkq - c9 \"1-0\"; ce -150;").unwrap();
    /// assert_eq!((p.result, p.score), (0.0, Some(-150.0)));
    /// assert!(Position::from_epd("4k3/8/8/8/8/8/4P3/4K3 w - - ce 20;").is_err()); // no result
    /// ```
    pub fn from_epd(line: &str) -> Result<Position, EpdError> {
        let mut fields = line.split_whitespace();
        let fen: Vec<&str> = fields.by_ref().take(4).collect();
        if fen.len() < 4 {
            return Err(EpdError::MissingFields);
        }
        let board = Board::from_fen(&format!("{} 0 1", fen.join(" ")), CastlingMode::Standard)
            .map_err(|e| EpdError::Fen(e.to_string()))?;
        let rest: String = fields.collect::<Vec<_>>().join(" ");
        let (mut result, mut score) = (None, None);
        for op in rest.split(';').map(str::trim).filter(|op| !op.is_empty()) {
            let (name, value) = op.split_once(' ').unwrap_or((op, ""));
            match name {
                "c9" => {
                    result = Some(match value.trim().trim_matches('"') {
                        "1-0" => 1.0,
                        "0-1" => 0.0,
                        "1/2-1/2" => 0.5,
                        other => return Err(EpdError::UnknownResult(other.to_owned())),
                    });
                }
                "ce" => {
                    let cp: f32 = value.trim().parse().map_err(|_| EpdError::BadScore(value.to_owned()))?;
                    score = Some(cp);
                }
                _ => {}
            }
        }
        let white_result: f32 = result.ok_or(EpdError::NoResult)?;
        let result = if board.side_to_move() == Color::White { white_result } else { 1.0 - white_result };
        Ok(Position { board, result, score })
    }
}
