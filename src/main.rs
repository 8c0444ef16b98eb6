//! The `cutoff` binary: the UCI engine by default, plus developer subcommands.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use cutoff_board::{Board, CastlingMode, STARTPOS_FEN};

#[derive(Parser, Debug)]
#[command(name = "cutoff", version, about = "Cutoff, a UCI chess engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal move tree, split by root move (divide).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Chess960 castling rules and notation.
        #[arg(long)]
        chess960: bool,
    },
    /// Search the embedded bench positions to a fixed depth (single thread, 16 MiB hash) and
    /// print the total nodes and speed; the node count depends only on the build.
    Bench {
        /// Search depth.
        #[arg(default_value_t = cutoff_uci::DEFAULT_BENCH_DEPTH)]
        depth: u32,
        /// Search the embedded endgame positions (4 and 5 pieces) instead, to measure the cost
        /// of tablebase probes: run it with and without `--syzygy`.
        #[arg(long)]
        endgames: bool,
        /// Probe the Syzygy tables in these directories (separated as for `SyzygyPath`).
        #[arg(long)]
        syzygy: Option<String>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            let mut uci = cutoff_uci::Uci::new(cutoff_uci::Output::new(std::io::stdout()));
            uci.run(std::io::stdin().lock());
            ExitCode::SUCCESS
        }
        Some(Command::Bench { depth, endgames, syzygy }) => {
            let tablebases = syzygy.map(|path| {
                let tb = cutoff_syzygy::Tablebases::open_path(&path);
                for problem in tb.problems() {
                    eprintln!("syzygy: {problem}");
                }
                eprintln!(
                    "syzygy: {} WDL and {} DTZ tables, up to {} pieces",
                    tb.num_wdl(),
                    tb.num_dtz(),
                    tb.max_pieces()
                );
                std::sync::Arc::new(tb)
            });
            let fens = if endgames { cutoff_uci::ENDGAME_BENCH_FENS } else { cutoff_uci::BENCH_FENS };
            let control = cutoff_search::SearchControl::default();
            control.reset(false);
            let result =
                cutoff_uci::run_bench_on(fens, depth.clamp(1, 64), Default::default(), tablebases, &control, |line| {
                    eprintln!("{line}")
                });
            let s = result.stats;
            eprintln!(
                "{} positions, depth {depth}: first-move cutoff rate {:.3}, average cutoff index {:.2}",
                result.positions,
                s.first_move_cutoff_rate(),
                s.average_cutoff_index()
            );
            if result.tbhits > 0 {
                eprintln!("tbhits {}", result.tbhits);
            }
            println!("{} nodes {} nps", result.nodes, result.nps());
            ExitCode::SUCCESS
        }
        Some(Command::Perft { depth, fen, chess960 }) => perft(depth, fen.as_deref().unwrap_or(STARTPOS_FEN), chess960),
    }
}

fn perft(depth: u32, fen: &str, chess960: bool) -> ExitCode {
    let board = match Board::from_fen(fen, CastlingMode::from_chess960(chess960)) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for (mv, nodes) in board.divide(depth) {
            println!("{}: {nodes}", board.uci(mv));
            total += nodes;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {total}");
    eprintln!("time {:.3} s, {:.1} Mnps", secs, total as f64 / secs.max(1e-9) / 1e6);
    ExitCode::SUCCESS
}
