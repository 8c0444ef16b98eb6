//! A small driver for end-to-end tests: runs the `cutoff` binary as a child process and talks
//! UCI to it over pipes.
//!
//! A reader thread forwards every stdout line (with the instant it was read) through a
//! channel, so waiting for a line never blocks forever: every wait has a timeout, which only
//! detects hangs (the timeouts are generous; the machine running the tests may be loaded).
//! Everything sent and received is kept in a transcript that is printed when a test fails.

#![allow(dead_code, reason = "each test crate uses a different subset of the helpers")]

pub mod check;
pub mod uci;

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The path of the engine binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_cutoff");

/// Default wait for a line: long enough for a loaded machine, short enough to report hangs.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Wait for the process to exit after `quit`.
const EXIT_TIMEOUT: Duration = Duration::from_secs(10);

/// Engine bug workaround. After sending `bestmove` the engine's search thread needs a moment
/// to finish, and until it has, `position`, `go` and `setoption` are refused ("a search is
/// running") even though the search is over: a GUI that answers `bestmove` at once with
/// `position` + `go` (as GUIs do) can get its position ignored, or no search at all. The
/// test `uci::commands_right_after_bestmove_are_accepted` (ignored until the engine is
/// fixed) shows it. While this is `true`, [`Engine::read_search`] waits until the engine
/// accepts commands again, so that the other tests check what they are about. Set it to
/// `false` once the bug is fixed.
pub const WORK_AROUND_BESTMOVE_RACE: bool = false;

/// Only the last lines of the transcript are printed on failure.
const TRANSCRIPT_TAIL: usize = 150;

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: Arc<Mutex<String>>,
    transcript: Vec<String>,
    started: Instant,
    exited: Option<ExitStatus>,
    /// Set when `quit` has succeeded: nothing left to clean up.
    done: bool,
    refusals: usize,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine").field("pid", &self.child.id()).finish_non_exhaustive()
    }
}

impl Engine {
    /// Starts the engine in UCI mode (no arguments).
    pub fn spawn() -> Engine {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG")
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = channel();
        thread::Builder::new()
            .name("engine-stdout".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let now = Instant::now();
                            while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                                buf.pop();
                            }
                            let line = String::from_utf8_lossy(&buf).into_owned();
                            if tx.send((now, line)).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .expect("spawn the stdout reader");
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        thread::Builder::new()
            .name("engine-stderr".into())
            .spawn(move || {
                let mut pipe = stderr_pipe;
                let mut chunk = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut s) = sink.lock() {
                        s.push_str(&String::from_utf8_lossy(&chunk[..n]));
                    }
                }
            })
            .expect("spawn the stderr reader");
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            stderr,
            transcript: Vec::new(),
            started: Instant::now(),
            exited: None,
            done: false,
            refusals: 0,
        }
    }

    fn note(&mut self, dir: &str, text: &str) {
        let ms = self.started.elapsed().as_millis();
        let shown: String = if text.chars().count() > 300 {
            format!("{}... ({} chars)", text.chars().take(300).collect::<String>(), text.chars().count())
        } else {
            text.to_string()
        };
        self.transcript.push(format!("{ms:>7} ms {dir} {shown}"));
    }

    /// Sends one line (a newline is added) and flushes it; returns when it was sent.
    pub fn send(&mut self, line: &str) -> Instant {
        self.note(">>", line);
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write_raw(&bytes)
    }

    /// Sends raw bytes (which should end with a newline) for garbage-input tests.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Instant {
        self.note(">>", &format!("(raw) {}", String::from_utf8_lossy(bytes).trim_end()));
        self.write_raw(bytes)
    }

    fn write_raw(&mut self, bytes: &[u8]) -> Instant {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("stdin already closed")),
        };
        if let Err(e) = result {
            self.fail(&format!("cannot write to the engine: {e}"));
        }
        Instant::now()
    }

    /// The next line with the instant it was read, or `None` after `timeout`. Fails if the
    /// engine closed its output (it crashed or quit).
    pub fn next_line(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((at, line)) => {
                self.note("<<", &line);
                Some((at, line))
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.wait().ok();
                self.exited = status;
                self.fail(&format!("the engine closed its output (exit status {status:?})"))
            }
        }
    }

    /// Waits for a line matching `pred` and returns it with the instant it was read; lines
    /// before it are skipped (they stay in the transcript).
    pub fn expect_line_at(&mut self, what: &str, pred: impl Fn(&str) -> bool, timeout: Duration) -> (Instant, String) {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some((at, line)) if pred(&line) => return (at, line),
                Some(_) => {}
                None => self.fail(&format!("timed out after {timeout:?} waiting for {what}")),
            }
        }
    }

    /// Waits for a line matching `pred` (see [`Engine::expect_line_at`]).
    pub fn expect_line(&mut self, what: &str, pred: impl Fn(&str) -> bool, timeout: Duration) -> String {
        self.expect_line_at(what, pred, timeout).1
    }

    /// Reads lines up to and including the first one matching `pred`.
    pub fn read_until(&mut self, what: &str, pred: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        self.read_until_at(what, pred, timeout).0
    }

    /// Like [`Engine::read_until`], also returning when the matching line was read.
    pub fn read_until_at(
        &mut self,
        what: &str,
        pred: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some((at, line)) => {
                    let stop = pred(&line);
                    lines.push(line);
                    if stop {
                        return (lines, at);
                    }
                }
                None => self.fail(&format!("timed out after {timeout:?} waiting for {what}")),
            }
        }
    }

    /// Reads the lines of one search, up to and including `bestmove` (see
    /// [`WORK_AROUND_BESTMOVE_RACE`]).
    pub fn read_search(&mut self) -> Vec<String> {
        self.read_search_at().0
    }

    /// Sends `go` (a `go ...` command), reads its search and returns the lines and the best
    /// move; fails the test if the search ends without one.
    pub fn go(&mut self, go: &str) -> (Vec<String>, String) {
        self.send(go);
        let lines = self.read_search();
        let Some((mv, _)) = lines.last().and_then(|l| check::bestmove(l)) else {
            self.fail(&format!("no bestmove after `{go}`: {lines:?}"));
        };
        (lines, mv)
    }

    /// Like [`Engine::read_search`], also returning when `bestmove` was read.
    pub fn read_search_at(&mut self) -> (Vec<String>, Instant) {
        let result = self.read_until_at("bestmove", |l| l.starts_with("bestmove"), TIMEOUT);
        if WORK_AROUND_BESTMOVE_RACE {
            self.wait_idle();
        }
        result
    }

    /// Waits until the engine accepts a new search (`go perft 0` is not refused), counting the
    /// refusals in [`Engine::refusals`].
    pub fn wait_idle(&mut self) {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            self.send("go perft 0");
            let what = "the answer to go perft 0";
            let line =
                self.expect_line(what, |l| l.starts_with("Nodes searched") || l.starts_with("info string"), TIMEOUT);
            if line == "Nodes searched: 1" {
                return;
            }
            if !line.contains("search is already running") {
                self.fail(&format!("unexpected answer to go perft 0: '{line}'"));
            }
            self.refusals += 1;
            if Instant::now() > deadline {
                self.fail("the engine still refuses to search long after bestmove");
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// How many times [`Engine::wait_idle`] found the engine refusing a search after `bestmove`.
    pub fn refusals(&self) -> usize {
        self.refusals
    }

    /// Sends `isready` and returns every line received before `readyok`. Since the engine
    /// handles commands in order, these are the answers to the commands sent before (apart
    /// from the output of a search running in the background).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", |l| l == "readyok", TIMEOUT);
        lines.pop();
        lines
    }

    /// Sends `command` and returns its output (everything before the following `readyok`).
    pub fn command(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.sync()
    }

    /// Whatever has arrived without waiting.
    pub fn drain(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok((_, line)) = self.lines.try_recv() {
            self.note("<<", &line);
            lines.push(line);
        }
        lines
    }

    /// Fails the test when `cond` is false.
    pub fn ensure(&mut self, cond: bool, msg: impl fmt::Display) {
        if !cond {
            self.fail(&msg.to_string());
        }
    }

    /// Fails the test with `msg`, the end of the transcript and the engine's stderr.
    pub fn fail(&mut self, msg: &str) -> ! {
        // Pick up what is still in flight, for the report.
        thread::sleep(Duration::from_millis(50));
        self.drain();
        let report = self.report();
        self.done = true;
        self.kill();
        panic!("{msg}\n{report}");
    }

    fn report(&self) -> String {
        let skip = self.transcript.len().saturating_sub(TRANSCRIPT_TAIL);
        let mut s = String::from("--- transcript (ms since start; >> to the engine, << from it) ---\n");
        if skip > 0 {
            s.push_str(&format!("... {skip} earlier lines omitted\n"));
        }
        for l in &self.transcript[skip..] {
            s.push_str(l);
            s.push('\n');
        }
        let stderr = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        if !stderr.is_empty() {
            s.push_str("--- engine stderr ---\n");
            s.push_str(&stderr);
        }
        s
    }

    fn kill(&mut self) {
        if self.exited.is_none() {
            let _ = self.child.kill();
            self.exited = self.child.wait().ok();
        }
    }

    /// Sends `quit` and checks that the engine exits successfully soon after (it is killed and
    /// the test fails otherwise). Returns the time from sending `quit` to the exit being
    /// seen (polled every 10 ms).
    pub fn quit(mut self) -> Duration {
        if self.refusals > 0 {
            println!(
                "note: the engine refused {} command(s) right after bestmove (see WORK_AROUND_BESTMOVE_RACE)",
                self.refusals
            );
        }
        let sent = self.send("quit");
        // Closing stdin as well: the engine must not need it, but it must not hang either.
        self.stdin = None;
        let deadline = Instant::now() + EXIT_TIMEOUT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exited = Some(status);
                    self.drain();
                    if !status.success() {
                        self.fail(&format!("the engine exited with {status} after quit"));
                    }
                    self.done = true;
                    return sent.elapsed();
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) => self.fail(&format!("the engine did not exit within {EXIT_TIMEOUT:?} of quit")),
                Err(e) => self.fail(&format!("cannot wait for the engine: {e}")),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        if thread::panicking() {
            // A plain assert failed somewhere: show what the engine saw and said.
            self.drain();
            eprintln!("{}", self.report());
        }
        self.kill();
    }
}

/// Runs the binary with `args` to completion (killing it after `timeout`); returns the exit
/// status, stdout and stderr.
pub fn run_cli(args: &[&str], timeout: Duration) -> (ExitStatus, String, String) {
    run_cli_with_input(args, None, timeout)
}

/// Like [`run_cli`], with `input` written to the engine's stdin, which is then closed (as
/// `echo ... | cutoff` does); with `None` stdin is empty.
pub fn run_cli_with_input(args: &[&str], input: Option<&str>, timeout: Duration) -> (ExitStatus, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
    if let (Some(text), Some(mut stdin)) = (input, child.stdin.take()) {
        // Dropping stdin at the end of this block closes it: the engine sees the end of input.
        let _ = stdin.write_all(text.as_bytes());
    }
    let mut out_pipe = child.stdout.take().expect("stdout is piped");
    let mut err_pipe = child.stderr.take().expect("stderr is piped");
    let out = thread::spawn(move || {
        let mut s = String::new();
        let _ = out_pipe.read_to_string(&mut s);
        s
    });
    let err = thread::spawn(move || {
        let mut s = String::new();
        let _ = err_pipe.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("`cutoff {}` did not finish within {timeout:?}", args.join(" "));
            }
            Err(e) => panic!("cannot wait for `cutoff {}`: {e}", args.join(" ")),
        }
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    (status, out, err)
}

/// A file in a fresh temporary directory (named after the test and the process), removed with
/// its directory when dropped.
pub struct TempFile(std::path::PathBuf);

impl TempFile {
    /// Writes `bytes` to `file_name` in a new directory `cutoff-<kind>-test-<pid>-<name>`.
    pub fn new(kind: &str, name: &str, file_name: &str, bytes: &[u8]) -> TempFile {
        let dir = std::env::temp_dir().join(format!("cutoff-{kind}-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(file_name);
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    /// The file's path, as a UCI option value.
    pub fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
