//! Self-play: Cutoff plays itself on several threads, inside the process (no UCI in between),
//! and writes every game to a [game file](crate::format).
//!
//! # A game
//!
//! 1. **Fresh engine.** The transposition table and every history table are cleared, so a game
//!    depends on nothing but its number and the settings.
//! 2. **Random opening.** 8 or 9 plies (chosen at random) of uniformly random legal moves from
//!    the standard start position, drawn from a [SplitMix64] generator seeded with the run's
//!    seed and the game's number; an opening that ends the game (mate, a repetition) is thrown
//!    away and another is drawn from the same generator. With an
//!    [`opening_limit`](SelfPlayConfig::opening_limit) (default 400 cp), the position after
//!    the opening is searched as the game's first move is, and an opening whose score is
//!    beyond ±limit is thrown away too and another drawn: a game decided by its random plies
//!    teaches little but the material count. The search of a kept opening is the game's first
//!    move, so a kept opening costs no extra search; the searches of thrown-away ones are not
//!    undone (the engine is cleared once per game, not once per draw), which keeps the game a
//!    function of its number and the settings. By default the opening is not recorded: the
//!    record starts at the position after it. With
//!    [`score_opening`](SelfPlayConfig::score_opening), each position of the opening (the
//!    start position included) is searched as any other, and the record starts at the start
//!    position with the random moves and those scores, so that the network also learns the
//!    positions before the random plies (which it otherwise never sees). The searches do not
//!    choose the random moves, and their scores do not count for adjudication. An opening
//!    position whose search chose a noisy move (a capture or a promotion) is recorded without a
//!    score: it is not quiet, but the training filter ([`is_training_position`]) sees only the
//!    random move played there, so the missing score is what marks it, and the filter skips a
//!    position that has a move but no score.
//! 3. **Search.** Both sides search with a *soft* node limit per move ([`Limits::soft_nodes`],
//!    default 500: no new iteration starts once the search has visited that many nodes) and a
//!    *hard* one ([`Limits::nodes`], by default 4 times the soft one, ending the search in any
//!    case; iterations at this size rarely need it). Single-threaded searches, so the game is
//!    the same on any machine and with any `--threads`.
//! 4. **Record.** Every move and the score of the search that chose it (from the side to move's
//!    point of view) is recorded. The final position is not searched: its score is "none".
//! 5. **End.** By the rules: checkmate, stalemate, threefold repetition, the fifty-move rule,
//!    insufficient material ([`Game::outcome`]). With `--syzygy`, a position the tables hold
//!    (no castling rights, few enough pieces) ends the game with the tables' result (a cursed
//!    win or blessed loss, lost to the fifty-move rule, is a draw); the tables only judge, the
//!    search does not probe them, so that recorded scores stay the engine's own. By
//!    [adjudication](Adjudication): resignation when the last 4 scores (2 of each side) all
//!    give one side at least 1000 cp; a draw when the last 10 scores are all within ±10 cp once
//!    the game is 80 plies long (counted from the initial position, the opening included).
//!
//! # Files and resuming
//!
//! The output directory holds `settings.txt` (the settings that decide the games) and one file
//! per thread, `games-<t>.bin`. Games are numbered from 0; thread `t` of `T` plays games `t`,
//! `t + T`, `t + 2T`, ... below `--games`. Each game is written whole, with one `write`, so a
//! stopped run leaves at most a partial last game in each file. A rerun with the same settings
//! (the same `--threads` too) continues: each thread reads its file, checks every game, cuts a
//! partial last game off, and from the `k` games there goes on with game `t + kT`. A larger
//! `--games` extends a finished run the same way. Since game `i` always plays the same,
//! resuming gives the very files a straight run would have. A rerun with other settings is
//! refused (the first differing one is named).
//!
//! [SplitMix64]: https://prng.di.unimi.it/splitmix64.c
//! [`is_training_position`]: crate::format::is_training_position

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cutoff_board::{Board, Color, Game, Move, Outcome};
use cutoff_search::{Engine, Limits, SearchControl, SearchOptions, SearchResult};
use cutoff_syzygy::{Tablebases, Wdl};

use crate::format::{FormatError, GameReader, GameRecord, GameResult, GameWriter, VERSION, encode_score};
use crate::rng::SplitMix64;

/// The default soft node limit per move: the one that gave the best network for the same CPU
/// time when it was tested (about 860 nodes searched a move; against 1,000 soft nodes, twice
/// the positions and +101 Elo for the network trained on them; `docs/nnue.md`, lesson 15).
pub const DEFAULT_SOFT_NODES: u64 = 500;

/// The default hard node limit is this many times the soft one.
pub const HARD_NODES_FACTOR: u64 = 4;

/// The default [`opening_limit`](SelfPlayConfig::opening_limit), centipawns.
pub const DEFAULT_OPENING_LIMIT: u32 = 400;

/// The most openings drawn for one game before the run gives up: a limit so tight that no
/// opening passes it would otherwise draw forever.
pub const MAX_OPENING_DRAWS: u64 = 10_000;

/// The name of the settings file in the output directory.
pub const SETTINGS_FILE: &str = "settings.txt";

/// The path of thread `thread`'s game file in `dir`: `dir/games-<thread>.bin`.
pub fn game_file(dir: &Path, thread: usize) -> PathBuf {
    dir.join(format!("games-{thread}.bin"))
}

/// When a game is ended before the rules end it. A zero number of plies turns a rule off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign: a side wins when the last [`resign_plies`](Adjudication::resign_plies) scores all
    /// give it at least this many centipawns (mate scores count as large).
    pub resign_score: i32,
    /// Resign: how many consecutive plies (both sides' searches) must agree (0: never resign).
    pub resign_plies: usize,
    /// Draw: the last [`draw_plies`](Adjudication::draw_plies) scores are all within
    /// ±`draw_score` centipawns ...
    pub draw_score: i32,
    /// ... for this many consecutive plies (0: never adjudicate a draw) ...
    pub draw_plies: usize,
    /// ... and the game has at least this many plies from the initial position.
    pub draw_after_ply: usize,
}

impl Default for Adjudication {
    /// Resign at 1000 cp for 4 plies; draw at ±10 cp for 10 plies after ply 80.
    fn default() -> Adjudication {
        Adjudication { resign_score: 1000, resign_plies: 4, draw_score: 10, draw_plies: 10, draw_after_ply: 80 }
    }
}

impl Adjudication {
    /// The adjudicated result after a move, if any: `white_scores` are the recorded scores so
    /// far from White's point of view, `game_plies` the length of the game from the initial
    /// position.
    pub fn judge(&self, white_scores: &[i32], game_plies: usize) -> Option<GameResult> {
        let last = |n: usize| (n > 0 && white_scores.len() >= n).then(|| &white_scores[white_scores.len() - n..]);
        if let Some(scores) = last(self.resign_plies) {
            if scores.iter().all(|&s| s >= self.resign_score) {
                return Some(GameResult::WhiteWin);
            }
            if scores.iter().all(|&s| s <= -self.resign_score) {
                return Some(GameResult::BlackWin);
            }
        }
        if game_plies >= self.draw_after_ply
            && let Some(scores) = last(self.draw_plies)
            && scores.iter().all(|&s| s.abs() <= self.draw_score)
        {
            return Some(GameResult::Draw);
        }
        None
    }
}

/// The settings of a self-play run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayConfig {
    /// The output directory (created if missing).
    pub out_dir: PathBuf,
    /// How many games the directory should hold when the run ends.
    pub games: u64,
    /// Game threads (each plays whole games with a single-threaded search).
    pub threads: usize,
    /// Soft node limit per move: no new iteration after this many nodes.
    pub soft_nodes: u64,
    /// Hard node limit per move: the search stops here in any case.
    pub hard_nodes: u64,
    /// The seed of the random openings.
    pub seed: u64,
    /// Transposition table size per thread, MiB.
    pub hash_mib: usize,
    /// The fewest random plies of an opening.
    pub opening_min_plies: usize,
    /// The most random plies of an opening.
    pub opening_max_plies: usize,
    /// Openings whose position after the random plies searches beyond ±this many centipawns
    /// (side to move's view) are drawn again (0: any opening is kept).
    pub opening_limit: u32,
    /// Search and record the positions of the random opening too (see the module
    /// documentation); off by default, so that earlier runs resume unchanged.
    pub score_opening: bool,
    /// When games are ended early.
    pub adjudication: Adjudication,
    /// Syzygy tablebase directories (separated as `PATH` is) to adjudicate with, if any.
    pub syzygy: Option<String>,
    /// The network the games evaluate with (`None`: the hand-crafted evaluation), so that
    /// each network's games can train the next.
    pub network: Option<Arc<cutoff_nnue::Network>>,
    /// How often the progress callback of [`run`] is called.
    pub progress_interval: Duration,
}

impl SelfPlayConfig {
    /// The default settings for `games` games seeded with `seed` into `out_dir`: 1 thread,
    /// 500 soft / 2000 hard nodes, 16 MiB hash, 8 or 9 random plies within ±400 cp, the
    /// default adjudication, no tablebases, the hand-crafted evaluation, progress every 5
    /// seconds.
    pub fn new(out_dir: impl Into<PathBuf>, games: u64, seed: u64) -> SelfPlayConfig {
        SelfPlayConfig {
            out_dir: out_dir.into(),
            games,
            threads: 1,
            soft_nodes: DEFAULT_SOFT_NODES,
            hard_nodes: DEFAULT_SOFT_NODES * HARD_NODES_FACTOR,
            seed,
            hash_mib: 16,
            opening_min_plies: 8,
            opening_max_plies: 9,
            opening_limit: DEFAULT_OPENING_LIMIT,
            score_opening: false,
            adjudication: Adjudication::default(),
            syzygy: None,
            network: None,
            progress_interval: Duration::from_secs(5),
        }
    }

    /// Sets the soft node limit and the hard one to [`HARD_NODES_FACTOR`] times it.
    pub fn with_nodes(mut self, soft_nodes: u64) -> SelfPlayConfig {
        self.soft_nodes = soft_nodes;
        self.hard_nodes = soft_nodes.saturating_mul(HARD_NODES_FACTOR);
        self
    }

    /// Checks the settings for values that cannot work.
    pub fn validate(&self) -> Result<(), DatagenError> {
        let fail = |msg: String| Err(DatagenError::Config(msg));
        if self.threads == 0 {
            return fail("at least one thread is needed".into());
        }
        if self.soft_nodes == 0 {
            return fail("the node limit must be at least 1".into());
        }
        if self.hard_nodes < self.soft_nodes {
            return fail(format!("the hard node limit {} is below the soft one {}", self.hard_nodes, self.soft_nodes));
        }
        if self.hash_mib == 0 {
            return fail("the hash must be at least 1 MiB".into());
        }
        if self.opening_min_plies > self.opening_max_plies {
            return fail(format!(
                "the opening's fewest plies {} exceed its most {}",
                self.opening_min_plies, self.opening_max_plies
            ));
        }
        if self.opening_max_plies > 200 {
            return fail("at most 200 random opening plies".into());
        }
        Ok(())
    }

    /// The contents of the settings file: every setting that decides the games (not the number
    /// of games, nor the output directory or the progress interval).
    fn settings_text(&self, tablebase_pieces: usize) -> String {
        let a = &self.adjudication;
        format!(
            "# The settings of a `cutoff datagen` run. A rerun into this directory continues it and\n\
             # must use the same settings (--games may differ).\n\
             format_version={VERSION}\n\
             seed={}\n\
             threads={}\n\
             soft_nodes={}\n\
             hard_nodes={}\n\
             hash_mib={}\n\
             opening_plies={}-{}\n\
             opening_limit={}\n\
             resign={} cp for {} plies\n\
             draw={} cp for {} plies from ply {}\n\
             syzygy_pieces={tablebase_pieces}\n\
             evaluation={}\n{}",
            self.seed,
            self.threads,
            self.soft_nodes,
            self.hard_nodes,
            self.hash_mib,
            self.opening_min_plies,
            self.opening_max_plies,
            // Written always (0 included), so that a directory of the rules before the limit,
            // whose settings lack it, is not continued under them.
            self.opening_limit,
            a.resign_score,
            a.resign_plies,
            a.draw_score,
            a.draw_plies,
            a.draw_after_ply,
            self.evaluation_name(),
            // Written only when on; its value names the rule for noisy opening positions, so
            // that a directory scored under the earlier rule (`yes`) is not continued.
            if self.score_opening { "score_opening=unscored-if-noisy\n" } else { "" },
        )
    }
}

impl SelfPlayConfig {
    /// How the settings file names the evaluation: `hce`, or `nnue-<N>-<checksum>` for a
    /// network (its hidden size and the FNV-1a checksum that ends its file).
    ///
    /// ```
    /// use cutoff_datagen::selfplay::SelfPlayConfig;
    /// assert_eq!(SelfPlayConfig::new("out", 1, 0).evaluation_name(), "hce");
    /// ```
    pub fn evaluation_name(&self) -> String {
        evaluation_name(self.network.as_deref())
    }
}

fn evaluation_name(network: Option<&cutoff_nnue::Network>) -> String {
    match network {
        None => "hce".into(),
        Some(net) => {
            let bytes = net.to_bytes();
            let tail: [u8; 8] = bytes[bytes.len() - 8..].try_into().unwrap_or_default();
            format!("nnue-{}-{:016x}", net.hidden(), u64::from_le_bytes(tail))
        }
    }
}

/// Why a self-play run failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum DatagenError {
    /// The settings cannot work.
    Config(String),
    /// A file or directory could not be read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// A game file of the output directory is corrupt (not just cut short).
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: FormatError,
    },
    /// The output directory was made with other settings.
    SettingsMismatch {
        /// The settings file.
        path: PathBuf,
        /// The first differing setting.
        key: String,
        /// Its value in the file.
        found: String,
        /// Its value in this run.
        expected: String,
    },
    /// The output directory holds game files but no settings file.
    MissingSettings {
        /// The settings file that should be there.
        path: PathBuf,
    },
    /// No Syzygy table was found in the given directories.
    NoTablebases {
        /// The directories.
        path: String,
    },
    /// The transposition table could not be allocated.
    Hash(String),
    /// The search misbehaved (an illegal move, a thread that died): a bug.
    Engine(String),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Config(msg) => write!(f, "bad settings: {msg}"),
            DatagenError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            DatagenError::Corrupt { path, source } => write!(f, "{}: {source}", path.display()),
            DatagenError::SettingsMismatch { path, key, found, expected } => write!(
                f,
                "{}: the directory was made with {key}={found}, this run has {key}={expected}; use the same \
                 settings to continue it, or another directory",
                path.display()
            ),
            DatagenError::MissingSettings { path } => write!(
                f,
                "{} is missing but the directory holds game files: refusing to add games of unknown settings",
                path.display()
            ),
            DatagenError::NoTablebases { path } => write!(f, "no Syzygy tables found in {path:?}"),
            DatagenError::Hash(msg) => write!(f, "hash: {msg}"),
            DatagenError::Engine(msg) => write!(f, "engine error: {msg}"),
        }
    }
}

impl std::error::Error for DatagenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DatagenError::Io { source, .. } => Some(source),
            DatagenError::Corrupt { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> DatagenError + '_ {
    move |source| DatagenError::Io { path: path.to_path_buf(), source }
}

/// How a self-play game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// Checkmate.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// Threefold repetition.
    Repetition,
    /// The fifty-move rule.
    FiftyMoves,
    /// Insufficient material.
    InsufficientMaterial,
    /// Resignation by adjudication.
    Resignation,
    /// A draw by adjudication.
    DrawAdjudication,
    /// The Syzygy tables' verdict.
    Tablebase,
}

/// A game played by [`GamePlayer::play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The record: from the position after the random opening, or with
    /// [`SelfPlayConfig::score_opening`] from the start position.
    pub record: GameRecord,
    /// How it ended.
    pub end: GameEnd,
    /// Nodes searched for its moves, the checks of its thrown-away openings included.
    pub nodes: u64,
    /// Time spent searching them.
    pub search_time: Duration,
    /// Openings thrown away for this game because their score was beyond
    /// [`SelfPlayConfig::opening_limit`].
    pub redrawn_openings: u64,
}

/// Plays self-play games: one engine (single-threaded search) and the settings of a run.
#[derive(Debug)]
pub struct GamePlayer {
    engine: Engine,
    control: SearchControl,
    limits: Limits,
    adjudication: Adjudication,
    opening_plies: (usize, usize),
    opening_limit: u32,
    score_opening: bool,
    tablebases: Option<Arc<Tablebases>>,
}

impl GamePlayer {
    /// A player with the settings of `config` (its engine has a `config.hash_mib` table),
    /// adjudicating with `tablebases` if given.
    pub fn new(config: &SelfPlayConfig, tablebases: Option<Arc<Tablebases>>) -> Result<GamePlayer, DatagenError> {
        let options = SearchOptions { threads: 1, ..SearchOptions::default() };
        let mut engine = Engine::new(config.hash_mib, options).map_err(|e| DatagenError::Hash(e.to_string()))?;
        engine.set_network(config.network.clone());
        Ok(GamePlayer {
            engine,
            control: SearchControl::default(),
            limits: Limits { soft_nodes: Some(config.soft_nodes), nodes: Some(config.hard_nodes), ..Limits::default() },
            adjudication: config.adjudication,
            opening_plies: (config.opening_min_plies, config.opening_max_plies),
            opening_limit: config.opening_limit,
            score_opening: config.score_opening,
            tablebases,
        })
    }

    /// Searches `board` (reached by `history`) with the game's limits.
    fn search(&mut self, board: &Board, history: &[u64]) -> SearchResult {
        self.control.reset(false);
        self.engine.search(board, history, &self.limits, &self.control, &|_| {})
    }

    /// Plays game number `index` of a run seeded with `seed` (the same game every time).
    pub fn play(&mut self, seed: u64, index: u64) -> Result<PlayedGame, DatagenError> {
        self.engine.clear();
        let mut rng = SplitMix64::for_game(seed, index);
        let (mut nodes, mut search_time) = (0, Duration::ZERO);
        let mut redrawn_openings = 0;
        // With a limit, the position after the opening is searched before the opening is kept;
        // that search is then the game's first move.
        let (mut game, opening, mut first_search) = loop {
            let (game, opening) = random_opening(&mut rng, self.opening_plies.0, self.opening_plies.1);
            if self.opening_limit == 0 {
                break (game, opening, None);
            }
            let searched = self.search(game.board(), game.history());
            nodes += searched.nodes;
            search_time += searched.time;
            if searched.score.unsigned_abs() <= self.opening_limit {
                break (game, opening, Some(searched));
            }
            redrawn_openings += 1;
            if redrawn_openings >= MAX_OPENING_DRAWS {
                return Err(DatagenError::Config(format!(
                    "no opening within ±{} cp in {MAX_OPENING_DRAWS} draws (game {index})",
                    self.opening_limit
                )));
            }
        };
        let opening_plies = opening.len();
        let mut white_scores = Vec::new();
        let mut record = if self.score_opening {
            let mut replay = Game::default();
            let mut record = GameRecord::new(*replay.board(), GameResult::Draw);
            for &mv in &opening {
                let board = *replay.board();
                let searched = self.search(&board, replay.history());
                nodes += searched.nodes;
                search_time += searched.time;
                // A position whose best move is noisy is not quiet, but the filter sees the
                // random move instead: no score marks it as no training position.
                let quiet = searched.best_move.is_some_and(|best| !best.is_noisy());
                let score = quiet.then(|| encode_score(searched.score));
                record.push(mv, score).map_err(|e| DatagenError::Engine(format!("{e} in {}", board.fen())))?;
                replay.play(mv).map_err(|e| DatagenError::Engine(format!("{e} in {}", board.fen())))?;
            }
            record
        } else {
            GameRecord::new(*game.board(), GameResult::Draw)
        };
        let recorded_opening = record.len();
        let (result, end) = loop {
            if let Some(outcome) = game.outcome() {
                break match outcome {
                    Outcome::Checkmate { winner } => (GameResult::from_winner(Some(winner)), GameEnd::Checkmate),
                    Outcome::Stalemate => (GameResult::Draw, GameEnd::Stalemate),
                    Outcome::ThreefoldRepetition => (GameResult::Draw, GameEnd::Repetition),
                    Outcome::FiftyMoves => (GameResult::Draw, GameEnd::FiftyMoves),
                    Outcome::InsufficientMaterial => (GameResult::Draw, GameEnd::InsufficientMaterial),
                };
            }
            let board = *game.board();
            let us = board.side_to_move();
            if let Some(tb) = &self.tablebases
                && let Some(wdl) = tb.probe_wdl(&board)
            {
                let winner = match wdl {
                    Wdl::Win => Some(us),
                    Wdl::Loss => Some(!us),
                    Wdl::CursedWin | Wdl::BlessedLoss | Wdl::Draw => None,
                };
                break (GameResult::from_winner(winner), GameEnd::Tablebase);
            }
            let searched = match first_search.take() {
                Some(searched) => searched,
                None => {
                    let searched = self.search(&board, game.history());
                    nodes += searched.nodes;
                    search_time += searched.time;
                    searched
                }
            };
            let Some(mv) = searched.best_move else {
                return Err(DatagenError::Engine(format!("no move in {}, which has legal moves", board.fen())));
            };
            let score = encode_score(searched.score);
            record.push(mv, Some(score)).map_err(|e| DatagenError::Engine(format!("{e} in {}", board.fen())))?;
            game.play(mv).map_err(|e| DatagenError::Engine(format!("{e} in {}", board.fen())))?;
            white_scores.push(if us == Color::White { i32::from(score) } else { -i32::from(score) });
            let game_plies = opening_plies + record.len() - recorded_opening;
            if let Some(result) = self.adjudication.judge(&white_scores, game_plies) {
                let end = if result == GameResult::Draw { GameEnd::DrawAdjudication } else { GameEnd::Resignation };
                break (result, end);
            }
        };
        record.set_result(result);
        Ok(PlayedGame { record, end, nodes, search_time, redrawn_openings })
    }
}

/// `min..=max` (chosen at random) uniformly random legal plies from the start position, drawn
/// again until the game is not over: the game after them, and the moves.
fn random_opening(rng: &mut SplitMix64, min: usize, max: usize) -> (Game, Vec<Move>) {
    loop {
        let plies = min + rng.below(max - min + 1);
        let mut game = Game::default();
        let mut moves_played = Vec::with_capacity(plies);
        let mut over = false;
        for _ in 0..plies {
            let moves = game.board().legal_moves();
            if moves.is_empty() {
                over = true;
                break;
            }
            let mv = moves[rng.below(moves.len())];
            // Legal by construction.
            let _ = game.play(mv);
            moves_played.push(mv);
        }
        if !over && game.outcome().is_none() {
            return (game, moves_played);
        }
    }
}

/// A progress report of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Time since the run started.
    pub elapsed: Duration,
    /// Game threads.
    pub threads: usize,
    /// The number of games the run is to reach.
    pub target_games: u64,
    /// Complete games in the files when the run started.
    pub games_before: u64,
    /// Games played by this run.
    pub games: u64,
    /// Positions (recorded moves) written by this run.
    pub positions: u64,
    /// Games of this run won by White.
    pub white_wins: u64,
    /// Games of this run drawn.
    pub draws: u64,
    /// Games of this run won by Black.
    pub black_wins: u64,
    /// Games of this run ended by adjudication (resignation, draw or tablebase).
    pub adjudicated: u64,
    /// Openings this run threw away for a score beyond [`SelfPlayConfig::opening_limit`].
    pub redrawn_openings: u64,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// Time the searches of this run took, all threads together.
    pub search_time: Duration,
}

impl Progress {
    /// Positions written per second by this run, all threads together.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-3)
    }

    /// Positions written per second and thread.
    pub fn positions_per_second_per_thread(&self) -> f64 {
        self.positions_per_second() / self.threads.max(1) as f64
    }

    /// The average number of recorded plies per game of this run (the opening counted only with
    /// [`SelfPlayConfig::score_opening`]).
    pub fn average_plies(&self) -> f64 {
        self.positions as f64 / self.games.max(1) as f64
    }

    /// Nodes searched per recorded move (the checks of thrown-away openings included).
    pub fn nodes_per_move(&self) -> f64 {
        self.nodes as f64 / self.positions.max(1) as f64
    }

    /// The search's speed: nodes per second of search time.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.search_time.as_secs_f64().max(1e-9)
    }

    /// The share of the threads' time spent searching: positions per second and thread over
    /// what the search's own speed allows (nodes per second ÷ nodes per move). The rest goes
    /// to openings, move bookkeeping and writing.
    pub fn search_share(&self) -> f64 {
        self.search_time.as_secs_f64() / (self.elapsed.as_secs_f64() * self.threads.max(1) as f64).max(1e-9)
    }

    /// All complete games in the files.
    pub fn games_done(&self) -> u64 {
        self.games_before + self.games
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs();
        write!(
            f,
            "{}/{} games ({} this run), {} positions, {:.0} pos/s ({:.0}/thread), W/D/L {}/{}/{}, {:.1} plies/game, \
             {} adjudicated, {} openings redrawn, {:.0} nodes/move at {:.0} knps, {:.0}% of the time searching, {}:{:02}:{:02}",
            self.games_done(),
            self.target_games,
            self.games,
            self.positions,
            self.positions_per_second(),
            self.positions_per_second_per_thread(),
            self.white_wins,
            self.draws,
            self.black_wins,
            self.average_plies(),
            self.adjudicated,
            self.redrawn_openings,
            self.nodes_per_move(),
            self.nodes_per_second() / 1000.0,
            100.0 * self.search_share(),
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )
    }
}

/// The counters the game threads update.
#[derive(Debug, Default)]
struct Counters {
    games: AtomicU64,
    positions: AtomicU64,
    white_wins: AtomicU64,
    draws: AtomicU64,
    black_wins: AtomicU64,
    adjudicated: AtomicU64,
    redrawn_openings: AtomicU64,
    nodes: AtomicU64,
    search_nanos: AtomicU64,
}

impl Counters {
    fn add(&self, game: &PlayedGame) {
        self.positions.fetch_add(game.record.len() as u64, Ordering::Relaxed);
        self.nodes.fetch_add(game.nodes, Ordering::Relaxed);
        self.redrawn_openings.fetch_add(game.redrawn_openings, Ordering::Relaxed);
        self.search_nanos.fetch_add(u64::try_from(game.search_time.as_nanos()).unwrap_or(u64::MAX), Ordering::Relaxed);
        let result = match game.record.result() {
            GameResult::WhiteWin => &self.white_wins,
            GameResult::Draw => &self.draws,
            GameResult::BlackWin => &self.black_wins,
        };
        result.fetch_add(1, Ordering::Relaxed);
        if matches!(game.end, GameEnd::Resignation | GameEnd::DrawAdjudication | GameEnd::Tablebase) {
            self.adjudicated.fetch_add(1, Ordering::Relaxed);
        }
        // Last, so that a report never shows a game without its positions.
        self.games.fetch_add(1, Ordering::Relaxed);
    }

    fn snapshot(&self, config: &SelfPlayConfig, games_before: u64, start: Instant) -> Progress {
        Progress {
            elapsed: start.elapsed(),
            threads: config.threads,
            target_games: config.games,
            games_before,
            games: self.games.load(Ordering::Relaxed),
            positions: self.positions.load(Ordering::Relaxed),
            white_wins: self.white_wins.load(Ordering::Relaxed),
            draws: self.draws.load(Ordering::Relaxed),
            black_wins: self.black_wins.load(Ordering::Relaxed),
            adjudicated: self.adjudicated.load(Ordering::Relaxed),
            redrawn_openings: self.redrawn_openings.load(Ordering::Relaxed),
            nodes: self.nodes.load(Ordering::Relaxed),
            search_time: Duration::from_nanos(self.search_nanos.load(Ordering::Relaxed)),
        }
    }
}

/// Writes the settings file, or checks that the one there matches.
fn check_settings(config: &SelfPlayConfig, tablebase_pieces: usize) -> Result<(), DatagenError> {
    let path = config.out_dir.join(SETTINGS_FILE);
    let expected = config.settings_text(tablebase_pieces);
    match fs::read_to_string(&path) {
        Ok(found) => {
            let pairs = |text: &str| -> Vec<(String, String)> {
                text.lines()
                    .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                    .map(|l| match l.split_once('=') {
                        Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                        None => (l.trim().to_string(), String::new()),
                    })
                    .collect()
            };
            let (found, expected) = (pairs(&found), pairs(&expected));
            for (key, value) in &expected {
                let there = found.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
                if there.as_ref() != Some(value) {
                    return Err(DatagenError::SettingsMismatch {
                        path,
                        key: key.clone(),
                        found: there.unwrap_or_else(|| "(missing)".into()),
                        expected: value.clone(),
                    });
                }
            }
            if let Some((key, value)) = found.iter().find(|(k, _)| !expected.iter().any(|(e, _)| e == k)) {
                return Err(DatagenError::SettingsMismatch {
                    path,
                    key: key.clone(),
                    found: value.clone(),
                    expected: "(none)".into(),
                });
            }
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let entries = fs::read_dir(&config.out_dir).map_err(io_error(&config.out_dir))?;
            for entry in entries {
                let name = entry.map_err(io_error(&config.out_dir))?.file_name();
                let name = name.to_string_lossy();
                if name.starts_with("games-") && name.ends_with(".bin") {
                    return Err(DatagenError::MissingSettings { path });
                }
            }
            fs::write(&path, expected).map_err(io_error(&path))
        }
        Err(e) => Err(DatagenError::Io { path, source: e }),
    }
}

/// Opens a thread's game file for appending: creates it with a header, or checks the games
/// there and cuts off a partial last game. Returns the writer and the number of complete games.
fn open_output(path: &Path) -> Result<(GameWriter<File>, u64), DatagenError> {
    let existing = match File::open(path) {
        Ok(file) => Some(file),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(DatagenError::Io { path: path.to_path_buf(), source: e }),
    };
    let fresh = || -> Result<(GameWriter<File>, u64), DatagenError> {
        let file = File::create(path).map_err(io_error(path))?;
        Ok((GameWriter::new(file).map_err(io_error(path))?, 0))
    };
    let Some(file) = existing else {
        return fresh();
    };
    let mut reader = match GameReader::new(BufReader::new(file)) {
        Ok(reader) => reader,
        Err(FormatError::TruncatedHeader { len }) => {
            log::warn!("{}: only {len} bytes, less than a header: starting it again", path.display());
            return fresh();
        }
        Err(FormatError::Io(source)) => return Err(DatagenError::Io { path: path.to_path_buf(), source }),
        Err(source) => return Err(DatagenError::Corrupt { path: path.to_path_buf(), source }),
    };
    for game in reader.by_ref() {
        match game {
            Ok(_) => {}
            Err(FormatError::Truncated { game }) => {
                log::warn!("{}: game {game} is incomplete (a stopped run): cutting it off", path.display());
                break;
            }
            Err(FormatError::Io(source)) => return Err(DatagenError::Io { path: path.to_path_buf(), source }),
            Err(source) => return Err(DatagenError::Corrupt { path: path.to_path_buf(), source }),
        }
    }
    let (games, complete, encoding) = (reader.games_read(), reader.complete_len(), reader.encoding());
    let file = OpenOptions::new().append(true).open(path).map_err(io_error(path))?;
    file.set_len(complete).map_err(io_error(path))?;
    Ok((GameWriter::append(file, encoding), games))
}

/// Runs self-play as `config` says, until the output directory holds `config.games` games,
/// calling `progress` every `config.progress_interval` (from the calling thread). Resumes a
/// stopped run in the same directory (see the module documentation). Returns the final
/// progress.
///
/// ```no_run
/// use cutoff_datagen::selfplay::{SelfPlayConfig, run};
/// let mut config = SelfPlayConfig::new("data/selfplay", 1000, 42).with_nodes(5000);
/// config.threads = 4;
/// let done = run(&config, &mut |p| eprintln!("datagen: {p}")).unwrap();
/// eprintln!("{} positions", done.positions);
/// ```
pub fn run(config: &SelfPlayConfig, progress: &mut dyn FnMut(&Progress)) -> Result<Progress, DatagenError> {
    config.validate()?;
    let tablebases = match &config.syzygy {
        Some(path) => {
            let tb = Tablebases::open_path(path);
            for problem in tb.problems() {
                log::warn!("syzygy: {problem}");
            }
            if tb.max_pieces() == 0 {
                return Err(DatagenError::NoTablebases { path: path.clone() });
            }
            Some(Arc::new(tb))
        }
        None => None,
    };
    let tablebase_pieces = tablebases.as_ref().map_or(0, |tb| tb.max_pieces());
    fs::create_dir_all(&config.out_dir).map_err(io_error(&config.out_dir))?;
    check_settings(config, tablebase_pieces)?;

    let mut outputs = Vec::with_capacity(config.threads);
    for thread in 0..config.threads {
        outputs.push(open_output(&game_file(&config.out_dir, thread))?);
    }
    let games_before: u64 = outputs.iter().map(|(_, games)| games).sum();

    let counters = Counters::default();
    let abort = AtomicBool::new(false);
    let start = Instant::now();
    let results = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(config.threads);
        for (thread, (writer, done)) in outputs.into_iter().enumerate() {
            let (counters, abort, tablebases) = (&counters, &abort, tablebases.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{thread}"))
                .stack_size(cutoff_search::STACK_SIZE)
                .spawn_scoped(scope, move || {
                    let result = play_games(config, thread, writer, done, tablebases, counters, abort);
                    if result.is_err() {
                        abort.store(true, Ordering::Relaxed);
                    }
                    result
                });
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    abort.store(true, Ordering::Relaxed);
                    return vec![Err(DatagenError::Engine(format!("could not start a game thread: {e}")))];
                }
            }
        }
        let mut last_report = Instant::now();
        while !handles.iter().all(|h| h.is_finished()) {
            std::thread::sleep(Duration::from_millis(20));
            if last_report.elapsed() >= config.progress_interval {
                last_report = Instant::now();
                progress(&counters.snapshot(config, games_before, start));
            }
        }
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(DatagenError::Engine("a game thread panicked".into()))))
            .collect::<Vec<_>>()
    });
    for result in results {
        result?;
    }
    Ok(counters.snapshot(config, games_before, start))
}

/// One game thread: plays its games from number `thread + done * threads` on.
fn play_games(
    config: &SelfPlayConfig,
    thread: usize,
    mut writer: GameWriter<File>,
    done: u64,
    tablebases: Option<Arc<Tablebases>>,
    counters: &Counters,
    abort: &AtomicBool,
) -> Result<(), DatagenError> {
    let threads = config.threads as u64;
    let mut index = (thread as u64).saturating_add(done.saturating_mul(threads));
    if index >= config.games {
        return Ok(());
    }
    let path = game_file(&config.out_dir, thread);
    let mut player = GamePlayer::new(config, tablebases)?;
    while index < config.games && !abort.load(Ordering::Relaxed) {
        let game = player.play(config.seed, index)?;
        writer.write_game(&game.record).map_err(io_error(&path))?;
        writer.flush().map_err(io_error(&path))?;
        counters.add(&game);
        index += threads;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_rules() {
        let a = Adjudication::default();
        assert_eq!(a.judge(&[1200, 1100, 1000], 40), None); // three plies only
        assert_eq!(a.judge(&[0, 1200, 1100, 1000, 1500], 40), Some(GameResult::WhiteWin));
        assert_eq!(a.judge(&[-1200, -1100, -31_990, -1000], 40), Some(GameResult::BlackWin));
        assert_eq!(a.judge(&[1200, 1100, 999, 1500], 40), None);
        let quiet = [5; 10];
        assert_eq!(a.judge(&quiet, 79), None);
        assert_eq!(a.judge(&quiet, 80), Some(GameResult::Draw));
        assert_eq!(a.judge(&[5, 5, 5, 5, 5, 11, 5, 5, 5, 5], 100), None);
        let off = Adjudication { resign_plies: 0, draw_plies: 0, ..a };
        assert_eq!(off.judge(&[5_000; 20], 200), None);
        assert_eq!(off.judge(&[0; 20], 200), None);
    }

    #[test]
    fn openings_are_legal_and_not_over() {
        for index in 0..50 {
            let mut rng = SplitMix64::for_game(3, index);
            let (game, moves) = random_opening(&mut rng, 8, 9);
            assert!((8..=9).contains(&game.history().len()));
            assert_eq!(moves.len(), game.history().len());
            assert_eq!(game.outcome(), None);
        }
    }
}
