//! A UCI engine process: start-up handshake, options, `go` with a deadline, crash and stall
//! detection, restart. Reader threads timestamp every line the engine writes, so move times are
//! measured where the line arrived, not where it was consumed.

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Lines of UCI traffic kept per engine for incident reports.
const TRANSCRIPT_LINES: usize = 24;
/// Lines of the engine's stderr kept for crash reports.
const STDERR_LINES: usize = 10;
/// How long `quit` may take before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How to start an engine, and what to tell it before the first game.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub path: PathBuf,
    pub args: Vec<String>,
    /// UCI options in the order they are sent (`setoption name N value V`).
    pub options: Vec<(String, String)>,
    pub chess960: bool,
}

/// Shared log of all UCI traffic (`--uci-log`).
#[derive(Debug, Clone)]
pub struct UciLog {
    file: Arc<Mutex<File>>,
    start: Instant,
}

impl UciLog {
    pub fn new(file: File, start: Instant) -> UciLog {
        UciLog { file: Arc::new(Mutex::new(file)), start }
    }

    fn write(&self, label: &str, arrow: &str, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut file) = self.file.lock() {
            // Logging is best effort.
            let _ = writeln!(file, "{t:10.3} {label} {arrow} {text}");
        }
    }
}

/// Why the engine could not be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The process could not be started, exited, or closed its pipes.
    Crash,
    /// The process did not answer in time.
    Stall,
}

#[derive(Debug, Clone)]
pub struct EngineError {
    pub failure: Failure,
    pub message: String,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EngineError {}

/// A score as the engine reported it, from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, with mates beyond any real evaluation (for resign adjudication).
    pub fn as_cp(self) -> i64 {
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => 100_000 - i64::from(n),
            Score::Mate(n) => -100_000 - i64::from(n),
        }
    }
}

impl fmt::Display for Score {
    /// cutechess style: `+0.31`, `-1.00`, `+M5`, `-M2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(n) if n > 0 => write!(f, "+M{n}"),
            Score::Mate(n) => write!(f, "-M{}", n.unsigned_abs()),
        }
    }
}

/// The last values the engine reported during a search (principal line only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    /// The last exact score.
    pub exact_score: Option<Score>,
    /// The last `lowerbound`/`upperbound` score (aspiration fail-high/low).
    pub bound_score: Option<Score>,
    pub nodes: Option<u64>,
}

impl SearchInfo {
    /// The score used for adjudication and PGN comments: the last exact score, else the last
    /// bound.
    pub fn score(&self) -> Option<Score> {
        self.exact_score.or(self.bound_score)
    }

    /// Merges one `info` line; lines for other MultiPV lines and `info string` are ignored.
    pub fn update(&mut self, line: &str) {
        let mut tokens = line.split_whitespace();
        if tokens.next() != Some("info") {
            return;
        }
        let mut new = SearchInfo::default();
        let mut score = None;
        let mut bound = false;
        let mut multipv = 1;
        while let Some(token) = tokens.next() {
            match token {
                "depth" => new.depth = tokens.next().and_then(|t| t.parse().ok()),
                "nodes" => new.nodes = tokens.next().and_then(|t| t.parse().ok()),
                "multipv" => multipv = tokens.next().and_then(|t| t.parse().ok()).unwrap_or(1),
                "score" => {
                    score = match (tokens.next(), tokens.next().and_then(|t| t.parse().ok())) {
                        (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                        (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                        _ => None,
                    }
                }
                "lowerbound" | "upperbound" => bound = true,
                // The rest of the line is free text or moves.
                "string" | "pv" | "refutation" | "currline" => break,
                _ => {}
            }
        }
        if multipv != 1 {
            return;
        }
        self.depth = new.depth.or(self.depth);
        self.nodes = new.nodes.or(self.nodes);
        match (score, bound) {
            (Some(score), false) => self.exact_score = Some(score),
            (Some(score), true) => self.bound_score = Some(score),
            (None, _) => {}
        }
    }
}

/// The answer to `go`.
#[derive(Debug, Clone)]
pub struct GoReply {
    /// The first word after `bestmove` (empty if there was none).
    pub bestmove: String,
    /// From writing `go` to reading `bestmove`.
    pub elapsed: Duration,
    pub info: SearchInfo,
}

/// Why `go` produced no move.
#[derive(Debug, Clone)]
pub enum GoError {
    /// No `bestmove` before the deadline (the engine was sent `stop`).
    Timeout(Duration),
    /// The engine exited or closed its output.
    Disconnected(String),
}

/// A timestamped line from the engine.
#[derive(Debug)]
struct Line {
    at: Instant,
    text: String,
}

/// A running engine process.
#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    /// For logs: `engine1#w0` (worker 0's instance of engine 1).
    label: String,
    /// Time allowed for the handshake, `isready`, and answering `stop`.
    pub response_timeout: Duration,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Reads stderr into `stderr_tail`; finished once the process (and its children) exited.
    stderr_thread: thread::JoinHandle<()>,
    transcript: VecDeque<String>,
    log: Option<UciLog>,
    /// `id name`, or the file name of the binary.
    pub id_name: String,
    /// Names of the options the engine declared.
    pub declared_options: Vec<String>,
    /// A search was left running (timed out): its `bestmove` must be consumed first.
    search_pending: bool,
    /// The process has failed and must be restarted before it is used.
    broken: bool,
}

impl Engine {
    /// Starts the process and runs the UCI handshake, options and `isready`.
    pub fn start(
        config: &EngineConfig,
        label: String,
        response_timeout: Duration,
        log: Option<UciLog>,
    ) -> Result<Engine, EngineError> {
        let crash = |message: String| EngineError { failure: Failure::Crash, message };
        let spawn = || {
            Command::new(&config.path)
                .args(&config.args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
        };
        let mut attempt = 0;
        let mut child = loop {
            match spawn() {
                // ETXTBSY (Linux): a binary that was just written may still be open for writing
                // in a process forked meanwhile; this clears up within moments.
                Err(e) if e.raw_os_error() == Some(26) && cfg!(target_os = "linux") && attempt < 20 => {
                    attempt += 1;
                    thread::sleep(Duration::from_millis(25));
                }
                result => break result.map_err(|e| crash(format!("cannot start {}: {e}", config.path.display())))?,
            }
        };
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(crash("no pipes to the engine process".to_owned()));
        };
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = String::new();
            loop {
                buf.clear();
                match reader.read_line(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = Line { at: Instant::now(), text: buf.trim_end().to_owned() };
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_thread = {
            let tail = Arc::clone(&stderr_tail);
            let log = log.clone();
            let label = label.clone();
            thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(|l| l.ok()) {
                    if let Some(log) = &log {
                        log.write(&label, "2>", &line);
                    }
                    if let Ok(mut tail) = tail.lock() {
                        if tail.len() == STDERR_LINES {
                            tail.pop_front();
                        }
                        tail.push_back(line);
                    }
                }
            })
        };
        let id_name = config.path.file_name().map_or_else(|| "engine".to_owned(), |n| n.to_string_lossy().into_owned());
        let mut engine = Engine {
            config: config.clone(),
            label,
            response_timeout,
            child,
            stdin,
            lines,
            stderr_tail,
            stderr_thread,
            transcript: VecDeque::new(),
            log,
            id_name,
            declared_options: Vec::new(),
            search_pending: false,
            broken: false,
        };
        engine.handshake()?;
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + self.response_timeout;
        loop {
            let line = self.recv(deadline, "uciok")?;
            let text = line.text.trim();
            if let Some(name) = text.strip_prefix("id name ") {
                self.id_name = name.trim().to_owned();
            } else if let Some(rest) = text.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                self.declared_options.push(name.to_owned());
            } else if text == "uciok" {
                break;
            }
        }
        if self.config.chess960 {
            self.send("setoption name UCI_Chess960 value true")?;
        }
        for (name, value) in self.config.options.clone() {
            if value.is_empty() {
                self.send(&format!("setoption name {name}"))?;
            } else {
                self.send(&format!("setoption name {name} value {value}"))?;
            }
        }
        self.sync()
    }

    /// The options of the configuration that the engine did not declare.
    pub fn unknown_options(&self) -> Vec<String> {
        let mut wanted: Vec<&str> = self.config.options.iter().map(|(n, _)| n.as_str()).collect();
        if self.config.chess960 {
            wanted.push("UCI_Chess960");
        }
        wanted
            .into_iter()
            .filter(|n| !self.declared_options.iter().any(|d| d.eq_ignore_ascii_case(n)))
            .map(str::to_owned)
            .collect()
    }

    /// Replaces the process with a fresh one (same configuration).
    pub fn restart(&mut self) -> Result<(), EngineError> {
        self.kill();
        let fresh = Engine::start(&self.config, self.label.clone(), self.response_timeout, self.log.clone())?;
        *self = fresh;
        Ok(())
    }

    /// Prepares for a new game: collects the `bestmove` of a search left running, then
    /// `ucinewgame` and `isready`. Fails if the engine is broken or does not answer.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        if self.broken {
            return Err(EngineError { failure: Failure::Crash, message: "the engine failed earlier".to_owned() });
        }
        if self.search_pending {
            let deadline = Instant::now() + self.response_timeout;
            loop {
                let line = self.recv(deadline, "bestmove (after stop)")?;
                if line.text.split_whitespace().next() == Some("bestmove") {
                    break;
                }
            }
            self.search_pending = false;
        }
        self.send("ucinewgame")?;
        self.sync()
    }

    /// `isready`, then waits for `readyok`, discarding anything else.
    fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.response_timeout;
        while self.recv(deadline, "readyok")?.text.trim() != "readyok" {}
        Ok(())
    }

    /// Sends `position` and `go` and waits for `bestmove` until `limit` after `go` was written.
    /// On a timeout the engine is sent `stop` (its `bestmove` is collected by [`Engine::new_game`]).
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<GoReply, GoError> {
        if self.broken {
            return Err(GoError::Disconnected("the engine failed earlier".to_owned()));
        }
        // Anything still queued (say, an `info string` after the last `bestmove`) is stale.
        loop {
            match self.lines.try_recv() {
                Ok(line) => self.note("<", &line.text),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return Err(GoError::Disconnected(self.disconnect_reason())),
            }
        }
        let sent = self.send(position).and_then(|()| self.send(go));
        let start = Instant::now();
        if sent.is_err() {
            return Err(GoError::Disconnected(self.disconnect_reason()));
        }
        let deadline = start + limit;
        let mut info = SearchInfo::default();
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => {
                    self.note("<", &line.text);
                    let mut tokens = line.text.split_whitespace();
                    match tokens.next() {
                        Some("info") => info.update(&line.text),
                        Some("bestmove") => {
                            let bestmove = tokens.next().unwrap_or_default().to_owned();
                            return Ok(GoReply { bestmove, elapsed: line.at.saturating_duration_since(start), info });
                        }
                        _ => {}
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.search_pending = true;
                    let _ = self.send("stop");
                    return Err(GoError::Timeout(start.elapsed()));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(GoError::Disconnected(self.disconnect_reason())),
            }
        }
    }

    /// The last lines of UCI traffic (`>` to the engine, `<` from it), oldest first.
    pub fn transcript(&self) -> Vec<String> {
        self.transcript.iter().cloned().collect()
    }

    /// The last lines the engine wrote to stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr_tail.lock().map(|t| t.iter().cloned().collect()).unwrap_or_default()
    }

    fn note(&mut self, arrow: &str, text: &str) {
        if let Some(log) = &self.log {
            log.write(&self.label, arrow, text);
        }
        if self.transcript.len() == TRANSCRIPT_LINES {
            self.transcript.pop_front();
        }
        self.transcript.push_back(format!("{arrow} {text}"));
    }

    fn send(&mut self, text: &str) -> Result<(), EngineError> {
        self.note(">", text);
        let result = self.stdin.write_all(format!("{text}\n").as_bytes()).and_then(|()| self.stdin.flush());
        result.map_err(|e| {
            self.broken = true;
            EngineError { failure: Failure::Crash, message: format!("cannot write to the engine: {e}") }
        })
    }

    fn recv(&mut self, deadline: Instant, waiting_for: &str) -> Result<Line, EngineError> {
        match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                self.note("<", &line.text);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => {
                self.broken = true;
                Err(EngineError {
                    failure: Failure::Stall,
                    message: format!("no `{waiting_for}` within {:.1} s", self.response_timeout.as_secs_f64()),
                })
            }
            Err(RecvTimeoutError::Disconnected) => {
                Err(EngineError { failure: Failure::Crash, message: self.disconnect_reason() })
            }
        }
    }

    /// Describes an engine whose output closed: its exit status if it exited.
    fn disconnect_reason(&mut self) -> String {
        self.broken = true;
        // The process may close stdout a moment before it is reaped.
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    // Let the last stderr lines (a panic message, say) reach the tail.
                    while !self.stderr_thread.is_finished() && Instant::now() < until {
                        thread::sleep(Duration::from_millis(5));
                    }
                    return format!("the engine exited ({status})");
                }
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return "the engine closed its output".to_owned(),
            }
        }
    }

    /// Kills this engine's own process (by its handle) and reaps it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    /// `quit`, then a kill if the process is still there after a grace period.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.stdin.write_all(b"quit\n").and_then(|()| self.stdin.flush());
            let until = Instant::now() + QUIT_GRACE;
            while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < until {
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_info_lines() {
        let mut info = SearchInfo::default();
        // Only bounds so far: the last bound is the score.
        info.update("info depth 1 score cp 40 upperbound nodes 10");
        assert_eq!(info.score(), Some(Score::Cp(40)));
        info.update("info depth 3 seldepth 6 multipv 1 score cp -17 nodes 916 nps 916000 time 0 pv d7d5 b1c3");
        assert_eq!((info.depth, info.score(), info.nodes), (Some(3), Some(Score::Cp(-17)), Some(916)));
        // Other MultiPV lines, strings and currmove lines do not replace the score.
        info.update("info depth 4 multipv 2 score cp 300 nodes 1000");
        info.update("info string score cp 999 depth 99");
        info.update("info depth 4 currmove e2e4 currmovenumber 1");
        assert_eq!((info.depth, info.score(), info.nodes), (Some(4), Some(Score::Cp(-17)), Some(916)));
        // A fail-high bound does not replace the last exact score.
        info.update("info depth 5 score mate 10 lowerbound nodes 5000 pv a1a2");
        assert_eq!(info.score(), Some(Score::Cp(-17)));
        assert_eq!(info.bound_score, Some(Score::Mate(10)));
        assert_eq!(info.nodes, Some(5000));
        info.update("info depth 5 score mate -3 nodes 6000 pv a1a2");
        assert_eq!(info.score(), Some(Score::Mate(-3)));
        info.update("bestmove e2e4");
        assert_eq!(info.depth, Some(5));
    }

    #[test]
    fn scores_print_like_cutechess() {
        assert_eq!(Score::Cp(31).to_string(), "+0.31");
        assert_eq!(Score::Cp(-100).to_string(), "-1.00");
        assert_eq!(Score::Cp(0).to_string(), "+0.00");
        assert_eq!(Score::Mate(5).to_string(), "+M5");
        assert_eq!(Score::Mate(-2).to_string(), "-M2");
        assert!(Score::Mate(30).as_cp() > 10_000);
        assert!(Score::Mate(-1).as_cp() < -10_000);
        assert!(Score::Mate(0).as_cp() < -10_000);
        assert_eq!(Score::Cp(-250).as_cp(), -250);
    }
}
