//! A small UCI client: runs an engine over pipes, with a timeout on every wait so that a hung
//! engine is reported instead of waited on forever.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long the engine may take to answer `uci` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait for `bestmove` after sending `stop` to an engine that overran.
const STOP_GRACE: Duration = Duration::from_secs(2);
/// Lines of the engine's stderr kept for error messages.
const STDERR_LINES: usize = 20;

/// Why talking to the engine failed.
#[derive(Debug)]
pub enum Failure {
    /// No expected answer in time.
    Timeout { waiting_for: &'static str, after: Duration },
    /// The engine closed its output (it exited or crashed).
    Exited { waiting_for: &'static str, status: String, stderr: Vec<String> },
    /// Writing to the engine failed.
    Io(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Timeout { waiting_for, after } => {
                write!(f, "no `{waiting_for}` after {:.1} s: the engine seems hung", after.as_secs_f64())
            }
            Failure::Exited { waiting_for, status, stderr } => {
                write!(f, "the engine exited ({status}) while xtask waited for `{waiting_for}`")?;
                if !stderr.is_empty() {
                    write!(f, "; its last stderr lines:\n    {}", stderr.join("\n    "))?;
                }
                Ok(())
            }
            Failure::Io(err) => write!(f, "cannot talk to the engine: {err}"),
        }
    }
}

/// The last `info` line's search data.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    /// `cp 35`, `mate -3`, ...
    pub score: Option<String>,
    pub nodes: Option<u64>,
}

impl Info {
    /// Updates from an `info ...` line (lines without a depth, such as `info string`, are ignored).
    fn update(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") || words.get(1) == Some(&"string") || !words.contains(&"depth") {
            return;
        }
        let mut i = 1;
        while i < words.len() {
            match words[i] {
                "depth" => self.depth = words.get(i + 1).and_then(|w| w.parse().ok()),
                "nodes" => self.nodes = words.get(i + 1).and_then(|w| w.parse().ok()),
                "score" => {
                    if let (Some(kind), Some(value)) = (words.get(i + 1), words.get(i + 2)) {
                        self.score = Some(format!("{kind} {value}"));
                    }
                    i += 1;
                }
                "pv" => break,
                _ => {}
            }
            i += 1;
        }
    }
}

/// What the engine answered to one `go`.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The `bestmove` text (a UCI move, or `(none)`/`0000`).
    pub bestmove: String,
    pub info: Info,
    /// The engine overran the timeout and answered only after `stop`.
    pub needed_stop: bool,
}

/// A running UCI engine.
#[derive(Debug)]
pub struct Engine {
    path: PathBuf,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The `id name` the engine gave, else its file name.
    pub name: String,
    /// The options it declared (`option name X ...`).
    pub options: Vec<String>,
}

impl Engine {
    /// Starts the engine and does the `uci`/`uciok` handshake.
    pub fn start(path: &Path) -> Result<Engine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the engine {}: {e}", path.display()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err("the engine's pipes are missing".into());
        };
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let sink = Arc::clone(&tail);
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Ok(mut tail) = sink.lock() {
                    if tail.len() == STDERR_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            }
        });
        let fallback = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
        let mut engine =
            Engine { path: path.to_path_buf(), child, stdin, lines, stderr: tail, name: fallback, options: Vec::new() };
        engine.send("uci").map_err(|e| e.to_string())?;
        let (mut name, mut options) = (None, Vec::new());
        engine
            .wait_for("uciok", HANDSHAKE_TIMEOUT, |line| {
                if let Some(n) = line.strip_prefix("id name ") {
                    name = Some(n.trim().to_owned());
                } else if let Some(rest) = line.strip_prefix("option name ") {
                    let option = rest.split(" type ").next().unwrap_or(rest).trim();
                    options.push(option.to_owned());
                }
            })
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(name) = name {
            engine.name = name;
        }
        engine.options = options;
        Ok(engine)
    }

    /// The engine's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the engine declared option `name` (case-insensitive, as UCI says).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush()).map_err(|e| Failure::Io(e.to_string()))
    }

    /// `isready`, then waits for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for("readyok", timeout, |_| {})
    }

    /// Sends `position fen FEN` and `go GO`, and waits for `bestmove`. After `timeout` it sends
    /// `stop` and waits a little longer; no answer then is [`Failure::Timeout`].
    pub fn search(&mut self, fen: &str, go: &str, timeout: Duration) -> Result<Answer, Failure> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go {go}"))?;
        let mut info = Info::default();
        let mut bestmove = None;
        let mut on_line = |line: &str| info.update(line);
        let mut needed_stop = false;
        match self.wait_for_line("bestmove", timeout, &mut on_line) {
            Ok(line) => bestmove = Some(line),
            Err(Failure::Timeout { .. }) => {
                needed_stop = true;
                self.send("stop")?;
                match self.wait_for_line("bestmove", STOP_GRACE, &mut on_line) {
                    Ok(line) => bestmove = Some(line),
                    Err(Failure::Timeout { .. }) => {}
                    Err(other) => return Err(other),
                }
            }
            Err(other) => return Err(other),
        }
        let Some(line) = bestmove else {
            return Err(Failure::Timeout { waiting_for: "bestmove", after: timeout + STOP_GRACE });
        };
        let bestmove = line.split_whitespace().nth(1).unwrap_or("(none)").to_owned();
        Ok(Answer { bestmove, info, needed_stop })
    }

    /// Waits for a line whose first word is `token`; every other line goes to `on_line`.
    fn wait_for(
        &mut self,
        token: &'static str,
        timeout: Duration,
        mut on_line: impl FnMut(&str),
    ) -> Result<(), Failure> {
        self.wait_for_line(token, timeout, &mut on_line).map(drop)
    }

    fn wait_for_line(
        &mut self,
        token: &'static str,
        timeout: Duration,
        on_line: &mut dyn FnMut(&str),
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if line.split_whitespace().next() == Some(token) {
                        return Ok(line);
                    }
                    on_line(&line);
                }
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout { waiting_for: token, after: timeout }),
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited(token)),
            }
        }
    }

    fn exited(&mut self, waiting_for: &'static str) -> Failure {
        // The output closed: give the process a moment to finish, for its exit status.
        let deadline = Instant::now() + Duration::from_secs(1);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
                Ok(None) => break "still running, output closed".to_owned(),
                Err(e) => break e.to_string(),
            }
        };
        // Let the stderr reader catch up.
        thread::sleep(Duration::from_millis(50));
        let stderr = self.stderr.lock().map(|t| t.iter().cloned().collect()).unwrap_or_default();
        Failure::Exited { waiting_for, status, stderr }
    }

    /// Sends `quit` and gives the engine a second to exit before killing it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut info = Info::default();
        info.update("info string hello depth 3");
        assert_eq!(info, Info::default());
        info.update("info depth 12 seldepth 20 multipv 1 score cp -35 nodes 123456 nps 1000 pv e2e4 e7e5");
        assert_eq!(info, Info { depth: Some(12), score: Some("cp -35".into()), nodes: Some(123_456) });
        info.update("info depth 13 score mate 3 upperbound nodes 200000 pv d1h5 depth 99");
        assert_eq!(info, Info { depth: Some(13), score: Some("mate 3".into()), nodes: Some(200_000) });
        info.update("info currmove e2e4 currmovenumber 1");
        assert_eq!(info.depth, Some(13));
    }
}
