//! `cargo xtask wdl`: fits the win/draw/loss model of `cutoff_search::wdl` to game results.
//!
//! Each labelled position gives a search score `s` (side to move), the material count `m` and
//! the game's outcome for the side to move. The model's `a(m)` and `b(m)` (cubic polynomials
//! in `m / 58`) are fitted by maximum likelihood: Adam on the mean negative log-likelihood of
//! the observed outcomes, with exact gradients. Deterministic: no sampling, sums in order.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use cutoff_board::{Board, CastlingMode, Color};
use cutoff_search::wdl::material;

use crate::eval_tune::{default_data, parse_line};
use crate::util::Result;

#[derive(Debug, Args)]
pub struct WdlArgs {
    /// Positions with `ce` (score, side to move) and `c9` (result, White's view).
    /// [default: the tuner's default data, unless --pgn is given]
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,

    /// Games in PGN with the engines' scores in the move comments (`{+0.35/18 0.41s}`, the
    /// mover's view, as `cargo xtask match` writes them): each move of --player with a score
    /// becomes a sample (the position before the move). Repeatable; replaces --data.
    #[arg(long, value_name = "FILE")]
    pub pgn: Vec<PathBuf>,

    /// With --pgn: a player (White or Black tag, exact) whose scores are used. Repeatable:
    /// in self-play, name both sides.
    #[arg(long, value_name = "NAME", requires = "pgn")]
    pub player: Vec<String>,

    /// Adam steps.
    #[arg(long, default_value_t = 3000)]
    pub steps: usize,

    /// Adam learning rate (the coefficients are in centipawns); it decays to a tenth.
    #[arg(long, default_value_t = 5.0)]
    pub lr: f64,

    /// Positions whose score is beyond this (centipawns) are left out: adjudicated games
    /// and mates say little about the shape of the curve.
    #[arg(long, default_value_t = 2000)]
    pub max_score: i32,
}

/// One sample: score (side to move), `x = material / 58`, outcome for the side to move
/// (0 win, 1 draw, 2 loss).
struct Sample {
    score: f64,
    x: f64,
    outcome: u8,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean negative log-likelihood and its gradient with respect to the 8 coefficients
/// (`a` then `b`, highest power first).
fn nll(samples: &[Sample], p: &[f64; 8]) -> (f64, [f64; 8]) {
    let mut total = 0.0;
    let mut grad = [0.0; 8];
    for s in samples {
        let powers = [s.x * s.x * s.x, s.x * s.x, s.x, 1.0];
        let a: f64 = (0..4).map(|i| p[i] * powers[i]).sum();
        let b: f64 = (0..4).map(|i| p[4 + i] * powers[i]).sum::<f64>().max(1.0);
        let zw = (s.score - a) / b;
        let zl = (-s.score - a) / b;
        let (w, l) = (sigmoid(zw), sigmoid(zl));
        let d = (1.0 - w - l).max(1e-9);
        // d(prob)/d(a) and d(prob)/d(b) for each outcome.
        let (dw_dz, dl_dz) = (w * (1.0 - w), l * (1.0 - l));
        let (dzw_da, dzw_db) = (-1.0 / b, -zw / b);
        let (dzl_da, dzl_db) = (-1.0 / b, -zl / b);
        let (prob, dp_da, dp_db) = match s.outcome {
            0 => (w, dw_dz * dzw_da, dw_dz * dzw_db),
            2 => (l, dl_dz * dzl_da, dl_dz * dzl_db),
            _ => (d, -(dw_dz * dzw_da + dl_dz * dzl_da), -(dw_dz * dzw_db + dl_dz * dzl_db)),
        };
        let prob = prob.max(1e-9);
        total -= prob.ln();
        for i in 0..4 {
            grad[i] -= dp_da * powers[i] / prob;
            grad[4 + i] -= dp_db * powers[i] / prob;
        }
    }
    let n = samples.len().max(1) as f64;
    (total / n, grad.map(|g| g / n))
}

/// The outcome code of a result for the side to move (1 win, 0.5 draw, 0 loss).
fn outcome(stm_result: f32) -> u8 {
    if stm_result > 0.75 {
        0
    } else if stm_result < 0.25 {
        2
    } else {
        1
    }
}

/// Samples from an EPD file; returns them and the number left out.
fn from_epd(file: &Path, max_score: i32) -> Result<(Vec<Sample>, usize)> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut samples = Vec::new();
    let mut skipped = 0usize;
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let (board, result, score) = parse_line(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let Some(white_score) = score else {
            skipped += 1;
            continue;
        };
        let stm = board.side_to_move();
        let score = if stm == Color::White { white_score } else { -white_score };
        if score.abs() > max_score as f32 {
            skipped += 1;
            continue;
        }
        let stm_result = if stm == Color::White { result } else { 1.0 - result };
        samples.push(Sample {
            score: f64::from(score),
            x: f64::from(material(&board)) / 58.0,
            outcome: outcome(stm_result),
        });
    }
    Ok((samples, skipped))
}

/// Samples from the games of a PGN file: every move of one of `players` whose comment starts with a
/// centipawn score (`+0.35/18`, pawns, the mover's view). Returns them and the number of that
/// player's moves left out (no score, a mate score, or beyond `max_score`).
fn from_pgn(text: &str, players: &[String], max_score: i32) -> Result<(Vec<Sample>, usize)> {
    let mut samples = Vec::new();
    let mut skipped = 0;
    for (g, game) in split_games(text).into_iter().enumerate() {
        let tag = |name: &str| game.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let white_result = match tag("Result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue,
        };
        let plays = |side: &str| tag(side).is_some_and(|name| players.iter().any(|p| p == name));
        let sides = [plays("White"), plays("Black")];
        if sides == [false, false] {
            continue;
        }
        let mut board = match tag("FEN") {
            Some(fen) => {
                let chess960 = tag("Variant").is_some_and(|v| v.eq_ignore_ascii_case("chess960"));
                Board::from_fen(fen, CastlingMode::from_chess960(chess960))
                    .map_err(|e| format!("game {}: {e}", g + 1))?
            }
            None => Board::default(),
        };
        let mut pending: Option<Board> = None;
        for token in &game.movetext {
            match token {
                Token::Move(san) => {
                    let before = board;
                    board.play_san(san).map_err(|e| format!("game {}: move {san}: {e}", g + 1))?;
                    pending = sides[before.side_to_move() as usize].then_some(before);
                    if pending.is_some() {
                        skipped += 1; // undone below when a usable score follows
                    }
                }
                Token::Comment(text) => {
                    let Some(before) = pending.take() else { continue };
                    let Some(pawns) = text.split('/').next().and_then(|s| s.trim().parse::<f64>().ok()) else {
                        continue;
                    };
                    let score = (pawns * 100.0).round();
                    if score.abs() > f64::from(max_score) {
                        continue;
                    }
                    let white = before.side_to_move() == Color::White;
                    let stm_result = if white { white_result } else { 1.0 - white_result };
                    samples.push(Sample {
                        score,
                        x: f64::from(material(&before)) / 58.0,
                        outcome: outcome(stm_result),
                    });
                    skipped -= 1;
                }
            }
        }
    }
    Ok((samples, skipped))
}

/// A token of PGN movetext that matters here.
#[derive(Debug, PartialEq)]
enum Token {
    Move(String),
    Comment(String),
}

/// One game of a PGN file: its tags and movetext tokens.
#[derive(Debug)]
struct PgnGame {
    tags: Vec<(String, String)>,
    movetext: Vec<Token>,
}

/// Splits PGN text into games (tags, then SAN moves and comments; move numbers, results,
/// NAGs and variations are dropped).
fn split_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame { tags: Vec::new(), movetext: Vec::new() };
    let mut in_movetext = false;
    let mut chars = text.chars().peekable();
    let mut depth = 0; // variation nesting
    while let Some(c) = chars.next() {
        match c {
            '[' if depth == 0 => {
                if in_movetext {
                    games.push(std::mem::replace(&mut game, PgnGame { tags: Vec::new(), movetext: Vec::new() }));
                    in_movetext = false;
                }
                let line: String = chars.by_ref().take_while(|&c| c != ']').collect();
                if let Some((name, value)) = line.split_once(' ') {
                    game.tags.push((name.to_owned(), value.trim().trim_matches('"').to_owned()));
                }
            }
            '{' => {
                let comment: String = chars.by_ref().take_while(|&c| c != '}').collect();
                if depth == 0 {
                    game.movetext.push(Token::Comment(comment));
                }
            }
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() => {}
            c => {
                in_movetext = true;
                let mut word = String::from(c);
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || "{}()[".contains(next) {
                        break;
                    }
                    word.push(next);
                    chars.next();
                }
                let is_number = word.trim_end_matches('.').chars().all(|c| c.is_ascii_digit());
                let is_result = ["1-0", "0-1", "1/2-1/2", "*"].contains(&word.as_str());
                if depth == 0 && !is_number && !is_result && !word.starts_with('$') {
                    let san = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    if !san.is_empty() {
                        game.movetext.push(Token::Move(san.to_owned()));
                    }
                }
            }
        }
    }
    if in_movetext || !game.tags.is_empty() {
        games.push(game);
    }
    games
}

pub fn run(args: &WdlArgs) -> Result<ExitCode> {
    let (samples, skipped, source) = if args.pgn.is_empty() {
        let file = match &args.data {
            Some(f) => f.clone(),
            None => default_data()?,
        };
        let (samples, skipped) = from_epd(&file, args.max_score)?;
        (samples, skipped, file.display().to_string())
    } else {
        if args.player.is_empty() {
            return Err("--pgn needs --player NAME".into());
        }
        let player = args.player.join(" and ");
        let (mut samples, mut skipped) = (Vec::new(), 0);
        for file in &args.pgn {
            let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let (s, k) =
                from_pgn(&text, &args.player, args.max_score).map_err(|e| format!("{}: {e}", file.display()))?;
            samples.extend(s);
            skipped += k;
        }
        let names: Vec<String> = args.pgn.iter().map(|f| f.display().to_string()).collect();
        (samples, skipped, format!("the moves of {player} in {}", names.join(", ")))
    };
    if samples.is_empty() {
        return Err(format!("no usable positions in {source}").into());
    }
    eprintln!(
        "wdl: {} positions from {} ({} left out: no score or |score| > {})",
        samples.len(),
        source,
        skipped,
        args.max_score
    );

    // Start: a = 150, b = 100 at every material count.
    let mut p = [0.0, 0.0, 0.0, 150.0, 0.0, 0.0, 0.0, 100.0];
    let (mut m, mut v) = ([0.0; 8], [0.0; 8]);
    let (beta1, beta2, eps, lr): (f64, f64, f64, f64) = (0.9, 0.999, 1e-8, args.lr);
    let (start, _) = nll(&samples, &p);
    let mut last = start;
    for step in 1..=args.steps {
        let (loss, g) = nll(&samples, &p);
        last = loss;
        let rate = lr * 0.1f64.powf((step - 1) as f64 / args.steps as f64);
        for i in 0..8 {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let mh = m[i] / (1.0 - beta1.powi(step as i32));
            let vh = v[i] / (1.0 - beta2.powi(step as i32));
            p[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if step % 500 == 0 {
            eprintln!("wdl: step {step}: negative log-likelihood {loss:.6}");
        }
    }
    eprintln!("wdl: negative log-likelihood {start:.6} -> {last:.6}");
    println!("pub const A: [f64; 4] = [{:.3}, {:.3}, {:.3}, {:.3}];", p[0], p[1], p[2], p[3]);
    println!("pub const B: [f64; 4] = [{:.3}, {:.3}, {:.3}, {:.3}];", p[4], p[5], p[6], p[7]);
    for mat in [17u32, 30, 45, 58, 78] {
        let x = f64::from(mat) / 58.0;
        let poly = |c: &[f64]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
        println!("material {mat:>2}: a = {:6.1} cp, b = {:6.1} cp", poly(&p[..4]), poly(&p[4..]));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scores_from_pgn_comments() {
        let pgn = r#"[Event "test"]
[White "a"]
[Black "b"]
[Result "0-1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]

1. e4 {+0.35/18 0.41s, tl=9.5s} e5 {-0.20/17 0.3s} 2. Nf3 {book} Nc6 {+0.10/16} 3. Bb5
{-M3/5 0.1s} a6 {+2.50/20} 0-1

[Event "test"]
[White "b"]
[Black "a"]
[Result "1/2-1/2"]

1. d4 {+0.01/10} (1. c4 {+5.00/1}) d5 {-0.05/10} 1/2-1/2
"#;
        let (samples, skipped) = from_pgn(pgn, &["a".to_owned()], 2000).unwrap();
        // a: e4 +35 (loss), Nf3 no score, Bb5 a mate, d5 -5 (draw).
        let got: Vec<(f64, u8)> = samples.iter().map(|s| (s.score, s.outcome)).collect();
        assert_eq!(got, vec![(35.0, 2), (-5.0, 1)]);
        assert_eq!(skipped, 2);
        // Full material in the start position: 78 of the scale's 58.
        assert!((samples[0].x - 78.0 / 58.0).abs() < 1e-9, "{}", samples[0].x);
        let (b, _) = from_pgn(pgn, &["b".to_owned()], 2000).unwrap();
        assert_eq!(b.iter().map(|s| s.score).collect::<Vec<_>>(), vec![-20.0, 10.0, 250.0, 1.0]);
        let (both, _) = from_pgn(pgn, &["a".to_owned(), "b".to_owned()], 2000).unwrap();
        assert_eq!(both.len(), samples.len() + b.len());
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let samples: Vec<Sample> = [(120.0, 0.8, 0), (-40.0, 0.5, 1), (300.0, 1.1, 2), (0.0, 0.4, 1), (-500.0, 0.9, 2)]
            .into_iter()
            .map(|(score, x, outcome)| Sample { score, x, outcome })
            .collect();
        let p = [10.0, -20.0, 30.0, 150.0, 5.0, -7.0, 9.0, 90.0];
        let (base, grad) = nll(&samples, &p);
        for i in 0..8 {
            let mut q = p;
            q[i] += 1e-5;
            let numeric = (nll(&samples, &q).0 - base) / 1e-5;
            assert!((numeric - grad[i]).abs() < 1e-5 + 1e-3 * numeric.abs(), "{i}: {numeric} vs {}", grad[i]);
        }
    }
}
