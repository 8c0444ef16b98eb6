//! `cargo xtask eval-bias`: how networks' static evaluations compare with the search scores
//! of self-play data, by stage of the game.
//!
//! Each training position of the game files ([`GameRecord::positions`], search score within
//! ±2000 cp; the evaluations are clamped to the same range) falls in a band of full-move numbers; within it, a second row keeps only the
//! positions whose material is the same for both sides. For each row the table gives the mean
//! search score (side to move's view: a positive mean is what the search gives the side to
//! move), and for each network its mean evaluation and mean absolute difference from the score.
//! A network that matches its data has a mean evaluation near the mean score; the start
//! position and the first plies, which data made with `--score-opening` only holds, show
//! whether a network learnt them. The start position's evaluation is printed first.
//!
//! [`GameRecord::positions`]: cutoff_datagen::GameRecord::positions

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cutoff_board::{Board, Color, PieceType};
use cutoff_datagen::format::GameReader;

use crate::util::Result;

#[derive(Debug, Args)]
pub struct EvalBiasArgs {
    /// A network file to evaluate with. Repeatable: one column each.
    #[arg(long, value_name = "FILE", required = true)]
    pub network: Vec<PathBuf>,

    /// Game files of `cutoff datagen` (either encoding). Repeatable.
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,

    /// Stop after this many positions.
    #[arg(long)]
    pub limit: Option<usize>,
}

/// The first full-move number of each band; the last band is open.
const BANDS: [u16; 6] = [1, 2, 5, 8, 12, 20];

/// Scores beyond this (cp) are left out: mates and won games say nothing about a bias.
const MAX_SCORE: i16 = 2000;

/// The sums of one row.
#[derive(Clone, Debug, Default)]
struct Row {
    count: u64,
    score: f64,
    eval: Vec<f64>,
    error: Vec<f64>,
}

impl Row {
    fn add(&mut self, score: f64, evals: &[f64]) {
        self.eval.resize(evals.len(), 0.0);
        self.error.resize(evals.len(), 0.0);
        self.count += 1;
        self.score += score;
        for (i, &e) in evals.iter().enumerate() {
            self.eval[i] += e;
            self.error[i] += (e - score).abs();
        }
    }
}

/// Whether both sides have the same number of pieces of every kind.
fn equal_material(board: &Board) -> bool {
    [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen]
        .into_iter()
        .all(|k| board.colored_pieces(Color::White, k).len() == board.colored_pieces(Color::Black, k).len())
}

/// The band of a full-move number.
fn band(fullmove: u16) -> usize {
    BANDS.iter().rposition(|&b| fullmove >= b).unwrap_or(0)
}

pub fn run(args: &EvalBiasArgs) -> Result<ExitCode> {
    let networks = args
        .network
        .iter()
        .map(|p| cutoff_uci::load_network(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let names: Vec<String> = args
        .network
        .iter()
        .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()))
        .collect();
    let start = Board::default();
    for (name, net) in names.iter().zip(&networks) {
        println!("{name}: the start position {:+} cp", net.evaluate(&start));
    }
    let mut rows = vec![[Row::default(), Row::default()]; BANDS.len()];
    let mut seen = 0;
    'files: for file in &args.data {
        let bytes = fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let reader = GameReader::new(bytes.as_slice()).map_err(|e| format!("{}: {e}", file.display()))?;
        for game in reader {
            let game = game.map_err(|e| format!("{}: {e}", file.display()))?;
            for p in game.positions() {
                let Some(score) = p.score.filter(|s| s.abs() <= MAX_SCORE) else { continue };
                if args.limit.is_some_and(|l| seen >= l) {
                    break 'files;
                }
                seen += 1;
                let evals: Vec<f64> = networks
                    .iter()
                    .map(|n| f64::from(n.evaluate(&p.board).clamp(-i32::from(MAX_SCORE), i32::from(MAX_SCORE))))
                    .collect();
                let row = &mut rows[band(p.board.fullmove_number())];
                row[0].add(f64::from(score), &evals);
                if equal_material(&p.board) {
                    row[1].add(f64::from(score), &evals);
                }
            }
        }
    }
    println!("{seen} positions (side to move's view, cp; per network: mean evaluation / mean |evaluation - score|)");
    print!("| moves | material | positions | mean score |");
    for name in &names {
        print!(" {name} |");
    }
    println!();
    println!("|{}", " --- |".repeat(4 + names.len()));
    for (i, pair) in rows.iter().enumerate() {
        let moves = match BANDS.get(i + 1) {
            Some(next) if next - 1 == BANDS[i] => BANDS[i].to_string(),
            Some(next) => format!("{}-{}", BANDS[i], next - 1),
            None => format!("{}+", BANDS[i]),
        };
        for (row, material) in pair.iter().zip(["all", "equal"]) {
            let n = row.count.max(1) as f64;
            print!("| {moves} | {material} | {} | {:+.1} |", row.count, row.score / n);
            for j in 0..names.len() {
                let (e, d) = (row.eval.get(j).copied().unwrap_or(0.0), row.error.get(j).copied().unwrap_or(0.0));
                print!(" {:+.1} / {:.1} |", e / n, d / n);
            }
            println!();
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_and_material() {
        assert_eq!(band(1), 0);
        assert_eq!(band(4), 1);
        assert_eq!(band(5), 2);
        assert_eq!(band(19), 4);
        assert_eq!(band(200), 5);
        assert!(equal_material(&Board::default()));
        let fen = "rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(!equal_material(&Board::from_fen(fen, Default::default()).unwrap()));
    }

    #[test]
    fn a_row_sums_scores_evaluations_and_errors() {
        let mut row = Row::default();
        row.add(10.0, &[30.0, -10.0]);
        row.add(-20.0, &[-20.0, 0.0]);
        assert_eq!(row.count, 2);
        assert_eq!(row.score, -10.0);
        assert_eq!(row.eval, [10.0, -10.0]);
        assert_eq!(row.error, [20.0, 40.0]);
    }
}
