//! The `cutoff` binary: the UCI engine by default, plus developer subcommands.

mod build_info;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use cutoff_board::{Board, CastlingMode, STARTPOS_FEN};
use cutoff_nnue::Network;

#[derive(Parser, Debug)]
#[command(name = "cutoff", version = build_info::VERSION, about = "Cutoff, a UCI chess engine")]
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
        #[command(flatten)]
        eval: EvalArgs,
    },
    /// Generate training data by self-play (games in Cutoff's binary game format), or convert
    /// or inspect such data. Progress goes to stderr.
    Datagen(Box<DatagenArgs>),
}

/// `--eval` and `--evalfile`, shared by `cutoff bench` and `cutoff datagen`.
#[derive(clap::Args, Debug)]
struct EvalArgs {
    /// The evaluation: `hce` (hand-crafted) or `nnue` (the embedded network).
    /// [default: the engine's default, `UseNNUE`]
    #[arg(long, value_enum, conflicts_with = "evalfile")]
    eval: Option<EvalKind>,
    /// Evaluate with the network in this file.
    #[arg(long, value_name = "FILE")]
    evalfile: Option<PathBuf>,
}

impl EvalArgs {
    /// The network asked for (`None`: the hand-crafted evaluation) and what it is, in words.
    fn network(&self) -> Result<(Option<Arc<Network>>, String), String> {
        Ok(match (self.eval, &self.evalfile) {
            (_, Some(path)) => {
                let net = cutoff_uci::load_network(path).map_err(|e| format!("{}: {e}", path.display()))?;
                (Some(Arc::new(net)), format!("the network in {}", path.display()))
            }
            (Some(EvalKind::Hce), None) => (None, "hand-crafted".into()),
            (Some(EvalKind::Nnue), None) => (
                Some(cutoff_uci::embedded_network().ok_or("this build embeds no network")?),
                "the embedded network".into(),
            ),
            (None, None) => match cutoff_uci::default_network() {
                Some(net) => (Some(net), "the embedded network, the default".into()),
                None => (None, "hand-crafted, the default of this build".into()),
            },
        })
    }
}

/// The evaluation of `cutoff bench --eval` and `cutoff datagen --eval`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum EvalKind {
    /// The hand-crafted evaluation.
    Hce,
    /// The network embedded in the binary.
    Nnue,
}

/// `cutoff datagen`: self-play into a directory, resumable (rerun the same command to continue).
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct DatagenArgs {
    #[command(subcommand)]
    action: Option<DatagenAction>,
    /// Output directory: `games-<thread>.bin` per thread and `settings.txt`.
    #[arg(long, required = true)]
    out: Option<PathBuf>,
    /// The number of games the directory should hold (a rerun continues up to it).
    #[arg(long, required = true)]
    games: Option<u64>,
    /// The seed of the random openings (game i of a seed is always the same game).
    #[arg(long, required = true)]
    seed: Option<u64>,
    /// Game threads (each plays whole games with a single-threaded search).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Soft node limit per move: no new iteration once the search has this many nodes.
    #[arg(long, default_value_t = cutoff_datagen::selfplay::DEFAULT_SOFT_NODES)]
    nodes: u64,
    /// Hard node limit per move (default: 4 times --nodes).
    #[arg(long)]
    hard_nodes: Option<u64>,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Adjudicate with the Syzygy tables in these directories (separated as for `SyzygyPath`).
    #[arg(long)]
    syzygy: Option<String>,
    #[command(flatten)]
    eval: EvalArgs,
    /// Draw the random opening again when the position after it searches beyond ±this many
    /// cp (0: keep every opening).
    #[arg(long, value_name = "CP", default_value_t = cutoff_datagen::selfplay::DEFAULT_OPENING_LIMIT)]
    opening_limit: u32,
    /// Resign when the last --resign-plies scores all give one side at least this many cp.
    #[arg(long, default_value_t = 1000)]
    resign_score: i32,
    /// Consecutive plies for resignation (0: never resign).
    #[arg(long, default_value_t = 4)]
    resign_plies: usize,
    /// Draw when the last --draw-plies scores are all within this many cp of 0 ...
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    /// ... for this many consecutive plies (0: never adjudicate a draw) ...
    #[arg(long, default_value_t = 10)]
    draw_plies: usize,
    /// ... once the game is this many plies long (from the initial position).
    #[arg(long, default_value_t = 80)]
    draw_after: usize,
    /// Seconds between progress reports.
    #[arg(long, default_value_t = 5.0)]
    report_every: f64,
    /// Also search and record the positions of the random opening, from the start position
    /// on (otherwise the record starts after it, and no network sees the first plies).
    #[arg(long)]
    score_opening: bool,
}

#[derive(Subcommand, Debug)]
enum DatagenAction {
    /// Convert an EPD file (`ce` score, side to move's view; `c9` result, White's view) into
    /// one-position games. Positions without `ce` are kept without a score.
    Convert {
        /// The EPD file.
        #[arg(long)]
        epd: PathBuf,
        /// The game file to write.
        #[arg(long)]
        out: PathBuf,
        /// Read castling rights as Chess960 (Shredder-FEN files).
        #[arg(long)]
        chess960: bool,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Rewrite a game file in the compact encoding (version 2, for archives: about 40 % smaller
    /// than version 1 once both are compressed), or back in the plain one (version 1) with
    /// --plain. The output is read back and compared with the input game by game.
    Compact {
        /// The game file to read (either encoding).
        input: PathBuf,
        /// The game file to write.
        output: PathBuf,
        /// Write the plain encoding (version 1, as `cutoff datagen` writes) instead.
        #[arg(long)]
        plain: bool,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Split a game file after its first N games, into two files of the same encoding whose
    /// games, one after the other, are the input's (to cut a run to the size a set may have).
    /// Both outputs are read back and compared with the input game by game.
    Split {
        /// The game file to read (either encoding; every game must be whole).
        input: PathBuf,
        /// How many games go to the first output; the rest go to the second.
        #[arg(long)]
        games: u64,
        /// The file for the first `--games` games.
        head: PathBuf,
        /// The file for the games after them.
        tail: PathBuf,
        /// Overwrite the outputs if they exist.
        #[arg(long)]
        force: bool,
    },
    /// Read game files (checking every game) and print what they hold.
    Info {
        /// The game files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    // Before anything else: a build for a higher instruction level than this CPU's refuses
    // here, in one line, instead of dying of SIGILL later.
    build_info::check_cpu();
    run()
}

/// The program proper, a separate function so that none of its code (compiled for the build's
/// instruction level) is scheduled ahead of the CPU check.
#[inline(never)]
fn run() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            cutoff_uci::set_build_info(format!("Cutoff {}", build_info::VERSION));
            let mut uci = cutoff_uci::Uci::new(cutoff_uci::Output::new(std::io::stdout()));
            uci.run(std::io::stdin().lock());
            ExitCode::SUCCESS
        }
        Some(Command::Bench { depth, endgames, syzygy, eval }) => {
            let network = match eval.network() {
                Ok((network, _)) => network,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
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
            let result = cutoff_uci::run_bench_on(
                fens,
                depth.clamp(1, 64),
                Default::default(),
                tablebases,
                network,
                &control,
                |line| eprintln!("{line}"),
            );
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
        Some(Command::Datagen(args)) => match datagen(*args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        },
    }
}

fn datagen(args: DatagenArgs) -> Result<(), String> {
    match args.action {
        Some(DatagenAction::Convert { epd, out, chess960, force }) => convert_epd(&epd, &out, chess960, force),
        Some(DatagenAction::Info { files }) => datagen_info(&files),
        Some(DatagenAction::Split { input, games, head, tail, force }) => split(&input, games, &head, &tail, force),
        Some(DatagenAction::Compact { input, output, plain, force }) => {
            let encoding = if plain { cutoff_datagen::Encoding::Plain } else { cutoff_datagen::Encoding::Compact };
            recode(&input, &output, encoding, force)
        }
        None => selfplay(args),
    }
}

fn selfplay(args: DatagenArgs) -> Result<(), String> {
    use cutoff_datagen::selfplay::{Adjudication, SelfPlayConfig};
    let (Some(out), Some(games), Some(seed)) = (args.out, args.games, args.seed) else {
        return Err("--out, --games and --seed are required".into());
    };
    if !(args.report_every.is_finite() && args.report_every > 0.0) {
        return Err(format!("--report-every {} is not a positive number of seconds", args.report_every));
    }
    let mut config = SelfPlayConfig::new(out, games, seed).with_nodes(args.nodes);
    config.threads = args.threads;
    if let Some(hard) = args.hard_nodes {
        config.hard_nodes = hard;
    }
    config.hash_mib = args.hash;
    config.score_opening = args.score_opening;
    config.opening_limit = args.opening_limit;
    config.syzygy = args.syzygy;
    // The same evaluation as the engine plays with by default, so that the data is the
    // engine's own unless asked otherwise.
    let (network, source) = args.eval.network()?;
    config.network = network;
    config.adjudication = Adjudication {
        resign_score: args.resign_score,
        resign_plies: args.resign_plies,
        draw_score: args.draw_score,
        draw_plies: args.draw_plies,
        draw_after_ply: args.draw_after,
    };
    config.progress_interval = Duration::from_secs_f64(args.report_every.min(1e6));
    config.validate().map_err(|e| e.to_string())?;
    eprintln!(
        "datagen: evaluation {} ({source}); {} games into {} on {} thread{}, {} nodes per move (hard {}), seed {}, {}",
        config.evaluation_name(),
        config.games,
        config.out_dir.display(),
        config.threads,
        if config.threads == 1 { "" } else { "s" },
        config.soft_nodes,
        config.hard_nodes,
        config.seed,
        match config.opening_limit {
            0 => "no opening limit".to_string(),
            cp => format!("openings within ±{cp} cp"),
        }
    );
    let done = cutoff_datagen::selfplay::run(&config, &mut |p| eprintln!("datagen: {p}")).map_err(|e| e.to_string())?;
    eprintln!("datagen: done: {done}");
    Ok(())
}

fn convert_epd(epd: &std::path::Path, out: &std::path::Path, chess960: bool, force: bool) -> Result<(), String> {
    use std::io::BufWriter;
    let input = std::fs::File::open(epd).map_err(|e| format!("{}: {e}", epd.display()))?;
    let output = create_output(out, force)?;
    let mut writer =
        cutoff_datagen::GameWriter::new(BufWriter::new(output)).map_err(|e| format!("{}: {e}", out.display()))?;
    let stats = cutoff_datagen::epd::convert_epd(
        std::io::BufReader::new(input),
        &mut writer,
        CastlingMode::from_chess960(chess960),
    )
    .map_err(|e| match e {
        cutoff_datagen::epd::ConvertError::Line { .. } => format!("{}: {e}", epd.display()),
        _ => format!("{e}"),
    })?;
    writer.flush().map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "converted {} positions ({} with a score, {} result only) into {}",
        stats.positions,
        stats.scored,
        stats.positions - stats.scored,
        out.display()
    );
    Ok(())
}

/// Opens `path` for writing: a new file, or (with `force`) one truncated.
fn create_output(path: &std::path::Path, force: bool) -> Result<std::fs::File, String> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    options.open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => format!("{} exists (--force to overwrite it)", path.display()),
        _ => format!("{}: {e}", path.display()),
    })
}

/// Whether two paths name the same file (hard links included).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok() == Some(a))
    }
}

/// A game file opened for reading, its header checked.
fn open_games(path: &std::path::Path) -> Result<cutoff_datagen::GameReader<std::io::BufReader<std::fs::File>>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    cutoff_datagen::GameReader::new(std::io::BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))
}

/// Where an output is written before it is checked and renamed into place.
fn partial_path(output: &std::path::Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// `cutoff datagen compact`: rewrites `input` in `encoding` into a temporary file beside
/// `output`, reads both again and compares them game by game, and only then renames it to
/// `output`: a failure leaves no partial output behind.
fn recode(
    input: &std::path::Path,
    output: &std::path::Path,
    encoding: cutoff_datagen::Encoding,
    force: bool,
) -> Result<(), String> {
    use cutoff_datagen::GameWriter;
    use std::io::BufWriter;

    let reader = open_games(input)?;
    if same_file(input, output) {
        return Err(format!("{}: the output is the input", output.display()));
    }
    if output.exists() && !force {
        return Err(format!("{} exists (--force to overwrite it)", output.display()));
    }
    let partial = partial_path(output);
    let result = (|| {
        let mut writer = GameWriter::with_encoding(BufWriter::new(create_output(&partial, true)?), encoding)
            .map_err(|e| format!("{}: {e}", partial.display()))?;
        for game in reader {
            let game = game.map_err(|e| format!("{}: {e}", input.display()))?;
            writer.write_game(&game).map_err(|e| format!("{}: {e}", partial.display()))?;
        }
        let games = writer.games_written();
        let file = writer.into_inner().into_inner().map_err(|e| format!("{}: {e}", partial.display()))?;
        file.sync_all().map_err(|e| format!("{}: {e}", partial.display()))?;
        // Read back: the two files must hold the same games.
        let (mut before, mut after) = (open_games(input)?, open_games(&partial)?);
        loop {
            match (before.next(), after.next()) {
                (None, None) => break,
                (Some(Ok(a)), Some(Ok(b))) if a == b => {}
                (Some(Err(e)), _) => return Err(format!("{}: reading it again: {e}", input.display())),
                (_, Some(Err(e))) => return Err(format!("{}: reading it back: {e}", partial.display())),
                _ => return Err(format!("{}: reads back differently from {}", partial.display(), input.display())),
            }
        }
        std::fs::rename(&partial, output).map_err(|e| format!("{}: {e}", output.display()))?;
        Ok(games)
    })();
    let games = result.inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })?;
    let size = |path: &std::path::Path| std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "{} games: {} ({} bytes) -> {} ({} bytes, version {}), read back and identical",
        games,
        input.display(),
        size(input),
        output.display(),
        size(output),
        encoding.version()
    );
    Ok(())
}

/// `cutoff datagen split`: the first `games` games of `input` to `head`, the rest to `tail`,
/// each through a `.partial` file renamed once both read back as the input's games.
fn split(
    input: &std::path::Path,
    games: u64,
    head: &std::path::Path,
    tail: &std::path::Path,
    force: bool,
) -> Result<(), String> {
    use cutoff_datagen::GameWriter;
    use std::io::BufWriter;

    let reader = open_games(input)?;
    let encoding = reader.encoding();
    if head == tail || same_file(head, tail) {
        return Err(format!("{}: the two outputs are one file", tail.display()));
    }
    for output in [head, tail] {
        if same_file(input, output) {
            return Err(format!("{}: the output is the input", output.display()));
        }
        if output.exists() && !force {
            return Err(format!("{} exists (--force to overwrite it)", output.display()));
        }
    }
    let partials = [partial_path(head), partial_path(tail)];
    let result = (|| {
        let mut writers = Vec::new();
        for path in &partials {
            let file = BufWriter::new(create_output(path, true)?);
            writers.push(GameWriter::with_encoding(file, encoding).map_err(|e| format!("{}: {e}", path.display()))?);
        }
        let mut read = 0u64;
        for game in reader {
            let game = game.map_err(|e| format!("{}: {e}", input.display()))?;
            let side = usize::from(read >= games);
            writers[side].write_game(&game).map_err(|e| format!("{}: {e}", partials[side].display()))?;
            read += 1;
        }
        if read < games {
            return Err(format!("{}: holds {read} games, fewer than --games {games}", input.display()));
        }
        for (writer, path) in writers.into_iter().zip(&partials) {
            let file = writer.into_inner().into_inner().map_err(|e| format!("{}: {e}", path.display()))?;
            file.sync_all().map_err(|e| format!("{}: {e}", path.display()))?;
        }
        // Read back: the head's games and then the tail's must be the input's.
        let mut before = open_games(input)?;
        for path in &partials {
            for after in open_games(path)? {
                match (before.next(), after) {
                    (Some(Ok(a)), Ok(b)) if a == b => {}
                    (Some(Err(e)), _) => return Err(format!("{}: reading it again: {e}", input.display())),
                    (_, Err(e)) => return Err(format!("{}: reading it back: {e}", path.display())),
                    _ => return Err(format!("{}: reads back differently from {}", path.display(), input.display())),
                }
            }
        }
        if before.next().is_some() {
            return Err(format!("{}: the two outputs hold fewer games than it", input.display()));
        }
        for (path, output) in partials.iter().zip([head, tail]) {
            std::fs::rename(path, output).map_err(|e| format!("{}: {e}", output.display()))?;
        }
        Ok(read)
    })();
    let read = result.inspect_err(|_| {
        for path in &partials {
            let _ = std::fs::remove_file(path);
        }
    })?;
    eprintln!(
        "{read} games: {} -> {games} in {}, {} in {} (version {}), read back and identical",
        input.display(),
        head.display(),
        read - games,
        tail.display(),
        encoding.version()
    );
    Ok(())
}

fn datagen_info(files: &[PathBuf]) -> Result<(), String> {
    for path in files {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let s = cutoff_datagen::file_stats(std::io::BufReader::new(file))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "{}: {} games, {} moves, {} training positions, {} scored positions, W/D/L {}/{}/{}, {:.2} bytes per position, version {}",
            path.display(),
            s.games,
            s.moves,
            s.training_positions,
            s.scored_positions,
            s.white_wins,
            s.draws,
            s.black_wins,
            s.bytes_per_position(),
            s.encoding.version()
        );
    }
    Ok(())
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
