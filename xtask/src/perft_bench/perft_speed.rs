//! `cargo xtask perft --bench`: single-threaded perft speed, cutoff-board vs cozy-chess.
//!
//! Both engines count the last ply in bulk and copy the board to make a move. The runs
//! alternate between the engines (cutoff, cozy, cutoff, cozy, ...) so that a slow phase of a
//! shared machine hits both; medians are compared.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use crate::perft_bench::perft::PerftArgs;
use crate::util::{self, Result};

/// Kiwipete, the classic move generation torture test (CPW "Position 2").
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The goal for the cutoff/cozy time ratio.
const GOAL_RATIO: f64 = 0.8;

#[derive(Debug)]
struct Position {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    expected: u64,
}

const POSITIONS: [Position; 2] = [
    Position { name: "startpos", fen: cutoff_board::STARTPOS_FEN, depth: 7, expected: 3_195_901_860 },
    Position { name: "kiwipete", fen: KIWIPETE, depth: 6, expected: 8_031_647_685 },
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    Cutoff,
    Cozy,
}

impl Engine {
    const ALL: [Engine; 2] = [Engine::Cutoff, Engine::Cozy];

    fn name(self) -> &'static str {
        match self {
            Engine::Cutoff => "cutoff",
            Engine::Cozy => "cozy",
        }
    }
}

/// The usual bulk-counting perft for cozy-chess.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => return 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// Both engines' boards for one position.
#[derive(Debug)]
struct Boards {
    cutoff: cutoff_board::Board,
    cozy: cozy_chess::Board,
}

impl Boards {
    fn new(position: &Position) -> Result<Boards> {
        let cutoff = cutoff_board::Board::from_fen(position.fen, cutoff_board::CastlingMode::Standard)
            .map_err(|e| format!("cutoff-board rejects {}: {e}", position.fen))?;
        let cozy = cozy_chess::Board::from_fen(position.fen, false)
            .map_err(|e| format!("cozy-chess rejects {}: {e:?}", position.fen))?;
        Ok(Boards { cutoff, cozy })
    }

    /// Runs one timed perft; returns (nodes, seconds).
    fn measure(&self, engine: Engine, depth: u32) -> (u64, f64) {
        let start = Instant::now();
        let nodes = match engine {
            Engine::Cutoff => black_box(&self.cutoff).perft(black_box(depth)),
            Engine::Cozy => cozy_perft(black_box(&self.cozy), black_box(depth)),
        };
        (black_box(nodes), start.elapsed().as_secs_f64())
    }
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 { sorted[mid] } else { (sorted[mid - 1] + sorted[mid]) / 2.0 }
}

fn print_build_info() {
    let env = |name: &str| std::env::var(name).map_or_else(|_| "(unset)".to_owned(), |v| format!("{v:?}"));
    let features: Vec<&str> = [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("bmi1", cfg!(target_feature = "bmi1")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect();
    println!(
        "build: profile {}, target {}-{}, target features [{}]",
        if cfg!(debug_assertions) { "dev (debug assertions on: numbers are meaningless)" } else { "release" },
        std::env::consts::ARCH,
        std::env::consts::OS,
        features.join(" "),
    );
    println!(
        "       bmi2 {} (target-cpu=native or -C target-feature=+bmi2); xtask `pext` feature {} (slider attacks: {})",
        if cfg!(target_feature = "bmi2") { "ENABLED" } else { "disabled" },
        if cfg!(feature = "pext") { "on" } else { "off" },
        if cfg!(feature = "pext") { "PEXT in both engines" } else { "magic bitboards in both engines" },
    );
    println!("       RUSTFLAGS={}, CARGO_ENCODED_RUSTFLAGS={}", env("RUSTFLAGS"), env("CARGO_ENCODED_RUSTFLAGS"));
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
        info.lines()
            .find_map(|l| l.strip_prefix("model name").map(|rest| rest.trim_start_matches([' ', '\t', ':']).to_owned()))
    });
    println!(
        "host:  {} hardware threads, cpu {}, load average {}",
        util::hardware_threads(),
        cpu.as_deref().unwrap_or("unknown"),
        util::load_average().as_deref().unwrap_or("unknown"),
    );
}

/// Runs `cargo xtask perft --bench`.
pub fn run(args: &PerftArgs) -> Result<ExitCode> {
    let runs = args.runs.get() as usize;
    let boards = POSITIONS.iter().map(Boards::new).collect::<Result<Vec<_>>>()?;

    print_build_info();
    println!(
        "bench: {runs} run(s) per engine and position, single thread, bulk counting, engines alternating; \
         times are wall clock (a shared machine makes them noisy)"
    );
    println!();

    // times[engine][position][run]
    let mut times = vec![vec![Vec::with_capacity(runs); POSITIONS.len()]; Engine::ALL.len()];
    let mut wrong = Vec::new();
    for run in 1..=runs {
        for (e, engine) in Engine::ALL.into_iter().enumerate() {
            for (p, (position, boards)) in POSITIONS.iter().zip(&boards).enumerate() {
                let (nodes, seconds) = boards.measure(engine, position.depth);
                let ok = nodes == position.expected;
                println!(
                    "run {run}/{runs}  {:<6}  {:<8} d{}  {:>15} nodes  {seconds:>8.3} s  {:>7.1} Mnps{}",
                    engine.name(),
                    position.name,
                    position.depth,
                    util::thousands(nodes),
                    util::mnps(nodes, seconds),
                    if ok { "" } else { "  WRONG NODE COUNT" },
                );
                if !ok {
                    wrong.push(format!(
                        "{} {} d{}: expected {}, got {}",
                        engine.name(),
                        position.name,
                        position.depth,
                        util::thousands(position.expected),
                        util::thousands(nodes)
                    ));
                }
                times[e][p].push(seconds);
            }
        }
    }

    println!();
    println!(
        "{:<9} {:>5} {:>15}  {:>10} {:>8}  {:>10} {:>8}  {:>11}",
        "position", "depth", "nodes", "cutoff (s)", "Mnps", "cozy (s)", "Mnps", "cutoff/cozy"
    );
    let mut total = [0.0_f64; 2];
    let mut total_nodes = 0;
    let mut worst = 0.0_f64;
    for (p, position) in POSITIONS.iter().enumerate() {
        let medians = [median(&times[0][p]), median(&times[1][p])];
        worst = worst.max(medians[0] / medians[1]);
        total[0] += medians[0];
        total[1] += medians[1];
        total_nodes += position.expected;
        println!(
            "{:<9} {:>5} {:>15}  {:>10.3} {:>8.1}  {:>10.3} {:>8.1}  {:>11.3}",
            position.name,
            position.depth,
            util::thousands(position.expected),
            medians[0],
            util::mnps(position.expected, medians[0]),
            medians[1],
            util::mnps(position.expected, medians[1]),
            medians[0] / medians[1],
        );
    }
    let ratio = total[0] / total[1];
    println!(
        "{:<9} {:>5} {:>15}  {:>10.3} {:>8.1}  {:>10.3} {:>8.1}  {:>11.3}",
        "total",
        "",
        util::thousands(total_nodes),
        total[0],
        util::mnps(total_nodes, total[0]),
        total[1],
        util::mnps(total_nodes, total[1]),
        ratio,
    );
    println!("(times are medians over {runs} run(s); total = sum of the per-position medians)");
    println!();
    println!(
        "ratio cutoff/cozy: {ratio:.3} in total, {worst:.3} on the slower position (lower is better): \
         goal <= {GOAL_RATIO:.2} on every position {}",
        if worst <= GOAL_RATIO { "MET" } else { "NOT met" }
    );
    if let Some(load) = util::load_average() {
        println!("load average at the end: {load}");
    }

    if wrong.is_empty() {
        println!("node counts: all correct");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("node counts: {} WRONG:", wrong.len());
        for w in &wrong {
            println!("  {w}");
        }
        Ok(util::EXIT_FAILURE.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_engines_agree_at_low_depth() {
        for position in &POSITIONS {
            let boards = Boards::new(position).unwrap();
            for depth in 0..=3 {
                assert_eq!(boards.cutoff.perft(depth), cozy_perft(&boards.cozy, depth), "{} d{depth}", position.name);
            }
        }
    }

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
