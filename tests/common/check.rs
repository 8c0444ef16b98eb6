//! Checks of the engine's search output against the rules of chess (via `cutoff-board`).

use cutoff_board::Board;

/// A score as sent in `info ... score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp N`.
    Cp(i32),
    /// `score mate N` (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// A number that orders scores the way the engine should (mates beyond any centipawns).
    pub fn rank(self) -> i64 {
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
            Score::Mate(n) => -1_000_000 - i64::from(n),
        }
    }
}

/// What one `info` line said.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score`.
    pub score: Option<Score>,
    /// `lowerbound` or `upperbound`, when present.
    pub bound: Option<String>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `pv`, in UCI notation (checked legal in sequence).
    pub pv: Vec<String>,
    /// `currmove`.
    pub currmove: Option<String>,
    /// `wdl W D L` (per mille; checked to sum to 1000).
    pub wdl: Option<[u32; 3]>,
    /// The text after `info string`.
    pub string: Option<String>,
}

fn number<T: std::str::FromStr>(key: &str, value: Option<&&str>) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("'{key}' without a value"))?;
    v.parse().map_err(|_| format!("'{key}' has a malformed value '{v}'"))
}

/// Parses and checks one `info` line sent while searching `board`: every token must be a
/// known UCI info field with a well-formed value, and `pv` / `currmove` moves must be legal
/// (the PV in sequence).
pub fn parse_info(board: &Board, line: &str) -> Result<Info, String> {
    let tokens: Vec<&str> = line.split(' ').collect();
    if tokens.first() != Some(&"info") || tokens.len() < 2 {
        return Err("not an info line".into());
    }
    if tokens.iter().skip(1).any(|t| t.is_empty()) {
        return Err("empty token (doubled or trailing space)".into());
    }
    let mut info = Info::default();
    let mut i = 1;
    while i < tokens.len() {
        let key = tokens[i];
        i += 1;
        let value = tokens.get(i);
        match key {
            "depth" => info.depth = Some(number(key, value)?),
            "seldepth" => info.seldepth = Some(number(key, value)?),
            "multipv" => {
                let n: u32 = number(key, value)?;
                if n == 0 {
                    return Err("multipv 0".into());
                }
                info.multipv = Some(n);
            }
            "nodes" => info.nodes = Some(number(key, value)?),
            "nps" | "time" | "tbhits" | "currmovenumber" | "cpuload" => {
                let _: u64 = number(key, value)?;
            }
            "hashfull" => {
                let h: u32 = number(key, value)?;
                if h > 1000 {
                    return Err(format!("hashfull {h} is above 1000"));
                }
            }
            "score" => {
                let kind = value.ok_or("'score' without a value")?;
                i += 1;
                let n: i32 = number(kind, tokens.get(i))?;
                info.score = Some(match *kind {
                    "cp" => Score::Cp(n),
                    "mate" => Score::Mate(n),
                    other => return Err(format!("unknown score kind '{other}'")),
                });
                if let Some(&b) = tokens.get(i + 1)
                    && (b == "lowerbound" || b == "upperbound")
                {
                    info.bound = Some(b.to_string());
                    i += 1;
                }
            }
            "wdl" => {
                let mut wdl = [0u32; 3];
                for (k, part) in wdl.iter_mut().enumerate() {
                    *part = number("wdl", tokens.get(i + k))?;
                }
                if wdl.iter().sum::<u32>() != 1000 {
                    return Err(format!("wdl {wdl:?} does not sum to 1000"));
                }
                info.wdl = Some(wdl);
                i += 2;
            }
            "currmove" => {
                let mv = value.ok_or("'currmove' without a move")?;
                board.parse_uci(mv).map_err(|e| format!("currmove {mv} is not legal here: {e}"))?;
                info.currmove = Some(mv.to_string());
            }
            "pv" => {
                let moves = &tokens[i..];
                if moves.is_empty() {
                    return Err("empty pv".into());
                }
                let mut b = *board;
                for (k, text) in moves.iter().enumerate() {
                    let mv = b
                        .parse_uci(text)
                        .map_err(|e| format!("pv move {} '{text}' is not legal in {}: {e}", k + 1, b.fen()))?;
                    b.play_unchecked(mv);
                }
                info.pv = moves.iter().map(|m| m.to_string()).collect();
                return Ok(info);
            }
            "string" => {
                info.string = Some(tokens[i..].join(" "));
                return Ok(info);
            }
            other => return Err(format!("unknown info field '{other}'")),
        }
        i += 1;
    }
    Ok(info)
}

/// The output of one search.
#[derive(Clone, Debug)]
pub struct Search {
    /// The `info` lines (except `info string`).
    pub infos: Vec<Info>,
    /// The `info string` texts.
    pub strings: Vec<String>,
    /// The best move (`0000` when there is none).
    pub best: String,
    /// The ponder move, if any.
    pub ponder: Option<String>,
}

/// Checks the lines of one search of `board` (ending with `bestmove`): only well-formed `info`
/// lines before it, a legal best move (or `0000` exactly when there is no legal move), a
/// legal ponder move, and a last PV that starts with the best move.
pub fn check_search(board: &Board, lines: &[String]) -> Result<Search, String> {
    let (last, infos) = lines.split_last().ok_or("no output")?;
    let mut search = Search { infos: Vec::new(), strings: Vec::new(), best: String::new(), ponder: None };
    for line in infos {
        let info = parse_info(board, line).map_err(|e| format!("bad line '{line}': {e}"))?;
        match info.string {
            Some(s) => search.strings.push(s),
            None => search.infos.push(info),
        }
    }
    let tokens: Vec<&str> = last.split(' ').collect();
    match tokens.as_slice() {
        ["bestmove", best] => search.best = best.to_string(),
        ["bestmove", best, "ponder", ponder] => {
            search.best = best.to_string();
            search.ponder = Some(ponder.to_string());
        }
        _ => return Err(format!("malformed bestmove line '{last}'")),
    }
    let has_moves = board.has_legal_moves();
    if search.best == "0000" {
        if has_moves {
            return Err(format!("bestmove 0000 although {} has legal moves", board.fen()));
        }
        if search.ponder.is_some() {
            return Err("a ponder move after bestmove 0000".into());
        }
        return Ok(search);
    }
    let mv = board.parse_uci(&search.best).map_err(|e| format!("bestmove {} is not legal: {e}", search.best))?;
    if let Some(p) = &search.ponder {
        let mut after = *board;
        after.play_unchecked(mv);
        after.parse_uci(p).map_err(|e| format!("ponder move {p} is not legal after {}: {e}", search.best))?;
    }
    if let Some(info) = search.infos.iter().rev().find(|i| !i.pv.is_empty())
        && info.pv[0] != search.best
    {
        return Err(format!("the last pv starts with {} but bestmove is {}", info.pv[0], search.best));
    }
    Ok(search)
}

/// The best move and ponder move of a `bestmove` line.
pub fn bestmove(line: &str) -> Option<(String, Option<String>)> {
    let tokens: Vec<&str> = line.split(' ').collect();
    match tokens.as_slice() {
        ["bestmove", best] => Some((best.to_string(), None)),
        ["bestmove", best, "ponder", ponder] => Some((best.to_string(), Some(ponder.to_string()))),
        _ => None,
    }
}
