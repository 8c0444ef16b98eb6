//! EPD test positions: the position (4 EPD fields), `bm`/`am` (SAN), `id`, and the STS scoring
//! operations `c7` (candidates in SAN), `c8` (their points) and `c9` (the same in UCI).

use std::path::Path;

use cutoff_board::{Board, CastlingMode, Move};

/// One EPD operation: the opcode and its operands (a quoted string is one operand, unquoted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<String>,
}

/// Splits an EPD line into its FEN (6 fields: the 4 EPD fields plus the clocks, `0 1` unless
/// the line has them or `hmvc`/`fmvn` operations) and its operations.
pub fn split(line: &str) -> Result<(String, Vec<Operation>), String> {
    let mut rest = line.trim();
    let mut fields = Vec::with_capacity(6);
    for name in ["piece placement", "side to move", "castling", "en passant"] {
        let (field, tail) = next_word(rest);
        if field.is_empty() {
            return Err(format!("missing the {name} field"));
        }
        fields.push(field.to_owned());
        rest = tail;
    }
    // Some files hold full FENs: two numbers where the first opcode would be.
    let (first, after_first) = next_word(rest);
    let (second, after_second) = next_word(after_first);
    let (mut halfmove, mut fullmove) = ("0".to_owned(), "1".to_owned());
    let second = second.strip_suffix(';').unwrap_or(second);
    if is_number(first) && is_number(second) {
        (halfmove, fullmove) = (first.to_owned(), second.to_owned());
        rest = after_second.trim_start().strip_prefix(';').unwrap_or(after_second);
    }
    let operations = operations(rest)?;
    for op in &operations {
        let value = op.operands.first().filter(|v| is_number(v));
        match (op.opcode.as_str(), value) {
            ("hmvc", Some(v)) => halfmove.clone_from(v),
            ("fmvn", Some(v)) => fullmove.clone_from(v),
            ("hmvc" | "fmvn", None) => return Err(format!("`{}` needs a number", op.opcode)),
            _ => {}
        }
    }
    fields.push(halfmove);
    fields.push(fullmove);
    Ok((fields.join(" "), operations))
}

fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

/// The next whitespace-delimited word and the text after it.
fn next_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    (&text[..end], &text[end..])
}

/// Parses the operations part of an EPD line: `opcode operand...;` repeated, operands
/// separated by spaces, double-quoted operands may contain spaces and semicolons.
fn operations(text: &str) -> Result<Vec<Operation>, String> {
    let mut ops = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|&c| c.is_whitespace() || c == ';').is_some() {}
        if chars.peek().is_none() {
            return Ok(ops);
        }
        let mut opcode = String::new();
        while let Some(c) = chars.next_if(|&c| !c.is_whitespace() && c != ';') {
            opcode.push(c);
        }
        if !opcode.starts_with(|c: char| c.is_ascii_alphabetic())
            || !opcode.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(format!("invalid EPD opcode `{opcode}`"));
        }
        let mut operands = Vec::new();
        loop {
            while chars.next_if(|&c| c.is_whitespace()).is_some() {}
            match chars.peek() {
                None => break,
                Some(';') => {
                    chars.next();
                    break;
                }
                Some('"') => {
                    chars.next();
                    let mut operand = String::new();
                    loop {
                        match chars.next() {
                            Some('"') => break,
                            Some(c) => operand.push(c),
                            None => return Err(format!("unterminated string in the `{opcode}` operation")),
                        }
                    }
                    operands.push(operand);
                }
                Some(_) => {
                    let mut operand = String::new();
                    while let Some(c) = chars.next_if(|&c| !c.is_whitespace() && c != ';') {
                        operand.push(c);
                    }
                    operands.push(operand);
                }
            }
        }
        ops.push(Operation { opcode, operands });
    }
}

/// A test position.
#[derive(Debug, Clone)]
pub struct Position {
    /// The `id` operation, else `line N` (its 1-based line number in the file).
    pub id: String,
    /// The STS theme (1-15) when the id is an STS id (`STS(v3.0) ...`).
    pub theme: Option<u8>,
    pub fen: String,
    pub board: Board,
    /// Best moves: solved if the engine plays one of them (when there are any).
    pub bm: Vec<Move>,
    /// Avoid moves: not solved if the engine plays one of them.
    pub am: Vec<Move>,
    /// STS candidates and their points (`c8` with `c9` or `c7`); empty if not an STS line.
    pub points: Vec<(Move, u32)>,
}

impl Position {
    /// Parses one EPD line (`line` is its 1-based number, for messages).
    pub fn parse(line: usize, text: &str) -> Result<Position, String> {
        let (fen, ops) = split(text)?;
        let board = Board::from_fen(&fen, CastlingMode::Standard).map_err(|e| format!("bad position `{fen}`: {e}"))?;
        let find = |opcode: &str| ops.iter().find(|op| op.opcode == opcode);
        let words = |op: &Operation| -> Vec<String> {
            op.operands.iter().flat_map(|o| o.split_whitespace()).map(str::to_owned).collect()
        };
        let moves = |opcode: &str, uci: bool| -> Result<Option<Vec<Move>>, String> {
            let Some(op) = find(opcode) else { return Ok(None) };
            let list = words(op)
                .iter()
                .map(|text| parse_move(&board, text, uci).map_err(|e| format!("{opcode} `{text}`: {e}")))
                .collect::<Result<Vec<_>, _>>()?;
            if list.is_empty() {
                return Err(format!("`{opcode}` has no moves"));
            }
            Ok(Some(list))
        };
        let id = find("id").map(|op| op.operands.join(" ")).filter(|id| !id.is_empty());
        let bm = moves("bm", false)?.unwrap_or_default();
        let am = moves("am", false)?.unwrap_or_default();

        let mut points = Vec::new();
        if let Some(c8) = find("c8") {
            let values = words(c8)
                .iter()
                .map(|v| v.parse::<u32>().map_err(|_| format!("c8: `{v}` is not a number of points")))
                .collect::<Result<Vec<_>, _>>()?;
            let (by_uci, by_san) = (moves("c9", true)?, moves("c7", false)?);
            let candidates = match (by_uci, by_san) {
                (Some(uci), Some(san)) if uci != san => {
                    return Err("the c7 (SAN) and c9 (UCI) candidates are different moves".into());
                }
                (Some(list), _) | (None, Some(list)) => list,
                (None, None) => return Err("c8 (points) without c7 or c9 (candidate moves)".into()),
            };
            if candidates.len() != values.len() {
                return Err(format!("{} candidate moves but {} c8 points", candidates.len(), values.len()));
            }
            points = candidates.into_iter().zip(values).collect();
        }
        if bm.is_empty() && am.is_empty() {
            return Err("no bm or am operation".into());
        }
        let theme = id.as_deref().and_then(sts_theme);
        Ok(Position { id: id.unwrap_or_else(|| format!("line {line}")), theme, fen, board, bm, am, points })
    }

    /// Whether `mv` solves the position: among `bm` (if any) and not among `am`.
    pub fn solved_by(&self, mv: Move) -> bool {
        (self.bm.is_empty() || self.bm.contains(&mv)) && !self.am.contains(&mv)
    }

    /// The STS points for playing `mv` (0 if it is not a candidate).
    pub fn points_for(&self, mv: Move) -> u32 {
        self.points.iter().filter(|(m, _)| *m == mv).map(|&(_, p)| p).max().unwrap_or(0)
    }

    /// The most points this position gives (0 if it is not an STS position).
    pub fn max_points(&self) -> u32 {
        self.points.iter().map(|&(_, p)| p).max().unwrap_or(0)
    }

    /// What counts as a solution, in SAN: `Nd5 a4`, `not Qxb2`, ...
    pub fn expected(&self) -> String {
        let mut parts: Vec<String> = self.bm.iter().map(|&m| self.board.san(m).to_string()).collect();
        parts.extend(self.am.iter().map(|&m| format!("not {}", self.board.san(m))));
        parts.join(" ")
    }
}

/// A move in SAN (or UCI when `uci`); SAN falls back to UCI, as some files mix them.
fn parse_move(board: &Board, text: &str, uci: bool) -> Result<Move, String> {
    if uci {
        return board.parse_uci(text).map_err(|e| e.to_string());
    }
    board.parse_san(text).or_else(|e| board.parse_uci(text).map_err(|_| e.to_string()))
}

/// The theme number of an STS id: `STS(v3.0) Knight Outposts.012` -> 3.
pub fn sts_theme(id: &str) -> Option<u8> {
    let rest = id.trim().strip_prefix("STS(v")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let theme: u8 = digits.parse().ok()?;
    (1..=15).contains(&theme).then_some(theme)
}

/// The names of the 15 STS themes, as in the shared data's README.
pub const STS_THEMES: [&str; 15] = [
    "Undermine",
    "Open Files and Diagonals",
    "Knight Outposts",
    "Square Vacancy",
    "Bishop vs Knight",
    "Recapturing",
    "Offer of Simplification",
    "Advancement of f/g/h Pawns",
    "Advancement of a/b/c Pawns",
    "Simplification",
    "Activity of the King",
    "Center Control",
    "Pawn Play in the Center",
    "Queens and Rooks to the 7th Rank",
    "Avoid Pointless Exchange",
];

/// Reads every position of an EPD file (blank lines and `#` comments skipped).
pub fn load(path: &Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut positions = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        // Some old files have NUL bytes or CRs at the ends of lines.
        let raw = raw.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let position = Position::parse(index + 1, raw).map_err(|e| format!("{}:{}: {e}", path.display(), index + 1))?;
        positions.push(position);
    }
    if positions.is_empty() {
        return Err(format!("{} has no positions", path.display()));
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BK01: &str = r#"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";"#;
    const BK05: &str = r#"r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - bm Nd5 a4; id "BK.05";"#;
    const STS: &str = r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2"; c7 "f5 Be5+ Bf2 Bg4"; c8 "10 2 3 2"; c9 "f4f5 d4e5 d4f2 f3g4";"#;

    fn mv(board: &Board, uci: &str) -> Move {
        board.parse_uci(uci).unwrap()
    }

    #[test]
    fn splits_operations() {
        let (fen, ops) = split(r#"8/8/8/8/8/8/8/K6k w - - bm Ka2 Kb1; id "a; b";c0 "x"  ;noop;  "#).unwrap();
        assert_eq!(fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        let got: Vec<(&str, Vec<&str>)> =
            ops.iter().map(|o| (o.opcode.as_str(), o.operands.iter().map(String::as_str).collect())).collect();
        assert_eq!(got, [("bm", vec!["Ka2", "Kb1"]), ("id", vec!["a; b"]), ("c0", vec!["x"]), ("noop", vec![])]);
        // The last operation may lack its semicolon.
        let (_, ops) = split("8/8/8/8/8/8/8/K6k w - - bm Ka2").unwrap();
        assert_eq!(ops, [Operation { opcode: "bm".into(), operands: vec!["Ka2".into()] }]);
    }

    #[test]
    fn fen_clocks() {
        assert_eq!(split("8/8/8/8/8/8/8/K6k w - - 3 40 bm Ka2;").unwrap().0, "8/8/8/8/8/8/8/K6k w - - 3 40");
        assert_eq!(split("8/8/8/8/8/8/8/K6k w - - 3 40;").unwrap().0, "8/8/8/8/8/8/8/K6k w - - 3 40");
        assert_eq!(
            split("8/8/8/8/8/8/8/K6k w - - hmvc 7; fmvn 12; bm Ka2;").unwrap().0,
            "8/8/8/8/8/8/8/K6k w - - 7 12"
        );
        assert!(split("8/8/8/8/8/8/8/K6k w - - hmvc x;").is_err());
    }

    #[test]
    fn rejects_malformed_lines() {
        assert!(split("8/8/8/8/8/8/8/K6k w -").is_err());
        assert!(split(r#"8/8/8/8/8/8/8/K6k w - - id "open"#).is_err());
        assert!(split("8/8/8/8/8/8/8/K6k w - - 5bm Ka2;").is_err());
        assert!(Position::parse(1, r#"8/8/8/8/8/8/8/K6k w - - id "x";"#).unwrap_err().contains("no bm or am"));
        assert!(Position::parse(1, "8/8/8/8/8/8/8/K6k w - - bm Ka3;").unwrap_err().contains("bm `Ka3`"));
        assert!(Position::parse(1, "8/8/8/8/8/8/8/K6k w - - bm;").is_err());
        assert!(Position::parse(1, "8/8/8/8/8/8/8/K6x w - - bm Ka2;").unwrap_err().contains("bad position"));
    }

    #[test]
    fn bratko_kopec_lines() {
        let p = Position::parse(1, BK01).unwrap();
        assert_eq!(p.id, "BK.01");
        assert_eq!(p.fen, "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1");
        assert_eq!(p.bm, [mv(&p.board, "d6d1")]);
        assert!(p.am.is_empty() && p.points.is_empty() && p.theme.is_none());
        assert!(p.solved_by(mv(&p.board, "d6d1")));
        assert!(!p.solved_by(mv(&p.board, "d6d2")));
        assert_eq!(p.max_points(), 0);
        assert_eq!(p.expected(), "Qd1+");

        let p = Position::parse(5, BK05).unwrap();
        assert_eq!(p.bm, [mv(&p.board, "c3d5"), mv(&p.board, "a2a4")]);
        assert_eq!(p.expected(), "Nd5 a4");
        assert!(p.solved_by(mv(&p.board, "a2a4")));
    }

    #[test]
    fn avoid_moves() {
        let p = Position::parse(3, "8/8/8/8/8/8/8/K6k w - - am Kb1;").unwrap();
        assert_eq!(p.id, "line 3");
        assert!(!p.solved_by(mv(&p.board, "a1b1")));
        assert!(p.solved_by(mv(&p.board, "a1a2")));
        assert_eq!(p.expected(), "not Kb1");
        let p = Position::parse(3, "8/8/8/8/8/8/8/K6k w - - bm Ka2 Kb1; am Kb1;").unwrap();
        assert!(!p.solved_by(mv(&p.board, "a1b1")));
    }

    #[test]
    fn sts_points() {
        let p = Position::parse(1, STS).unwrap();
        assert_eq!(p.id, "STS(v1.0) Undermine.001");
        assert_eq!(p.theme, Some(1));
        let b = &p.board;
        assert_eq!(p.points, [(mv(b, "f4f5"), 10), (mv(b, "d4e5"), 2), (mv(b, "d4f2"), 3), (mv(b, "f3g4"), 2)]);
        assert_eq!(p.max_points(), 10);
        assert_eq!(p.points_for(mv(b, "d4f2")), 3);
        assert_eq!(p.points_for(mv(b, "g1g2")), 0);
        assert!(p.solved_by(mv(b, "f4f5")));

        // c7 alone (SAN) is enough; c9 alone too; they must agree when both are present.
        let san_only = STS.replace(r#" c9 "f4f5 d4e5 d4f2 f3g4";"#, "");
        assert_eq!(Position::parse(1, &san_only).unwrap().points, p.points);
        let uci_only = STS.replace(r#" c7 "f5 Be5+ Bf2 Bg4";"#, "");
        assert_eq!(Position::parse(1, &uci_only).unwrap().points, p.points);
        let disagree = STS.replace("f3g4", "f3h5");
        assert!(Position::parse(1, &disagree).unwrap_err().contains("different"));
        let short = STS.replace("10 2 3 2", "10 2 3");
        assert!(Position::parse(1, &short).unwrap_err().contains("4 candidate moves but 3"));
        let no_moves = STS.replace(r#" c7 "f5 Be5+ Bf2 Bg4";"#, "").replace(r#" c9 "f4f5 d4e5 d4f2 f3g4";"#, "");
        assert!(Position::parse(1, &no_moves).is_err());
        assert!(Position::parse(1, &STS.replace("10 2 3 2", "10 2 x 2")).is_err());
    }

    #[test]
    fn sts_theme_numbers() {
        assert_eq!(sts_theme("STS(v1.0) Undermine.001"), Some(1));
        assert_eq!(sts_theme("STS(v15.0) AT.100"), Some(15));
        assert_eq!(sts_theme("STS(v16.0) X.1"), None);
        assert_eq!(sts_theme("BK.01"), None);
    }
}
