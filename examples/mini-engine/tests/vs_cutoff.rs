//! The example engine plays Cutoff over UCI, once with each colour, and every move it
//! sends must be legal (checked by this test, the arbiter, with `cutoff_board::Game`).
//!
//! The example engine runs as its own process (the `mini-engine` binary built from
//! `src/main.rs`, which depends on cutoff-board, cutoff-ordering and cutoff-tt only). Cutoff
//! runs in this process: its UCI front-end (`cutoff_uci::Uci`, a dev-dependency) reads and
//! writes through OS pipes, exactly the text the `cutoff` binary speaks. (A test can only
//! locate the binaries of its own package, so the `cutoff` binary itself is not used.)

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::Duration;

use cutoff_board::Game;

/// Long enough for a loaded machine; only there to turn a hang into a failure.
const TIMEOUT: Duration = Duration::from_secs(60);
/// Plies after which a game that has not ended is stopped (adjudicated as unfinished).
const MAX_PLIES: usize = 80;

/// One side of the game: lines go in through `input`, come out through `lines`.
struct Peer {
    name: &'static str,
    input: Box<dyn Write + Send>,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Peer {
    fn new(name: &'static str, input: Box<dyn Write + Send>, output: impl Read + Send + 'static) -> Peer {
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Peer { name, input, lines, transcript: Vec::new() }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).expect("the engine reads its input");
    }

    /// Reads lines until one starts with `prefix`, and returns it.
    fn wait_for(&mut self, prefix: &str) -> String {
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    if line.starts_with(prefix) {
                        return line;
                    }
                }
                Err(e) => panic!("{}: no `{prefix}` line ({e}); transcript:\n{}", self.name, self.tail()),
            }
        }
    }

    fn tail(&self) -> String {
        self.transcript[self.transcript.len().saturating_sub(40)..].join("\n")
    }

    fn start(&mut self) {
        self.send("uci");
        self.wait_for("uciok");
        self.send("ucinewgame");
        self.send("isready");
        self.wait_for("readyok");
    }
}

/// The example engine, as a child process.
fn mini_engine() -> (Peer, Child) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mini-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the mini-engine binary starts");
    let input = Box::new(child.stdin.take().expect("piped"));
    let output = child.stdout.take().expect("piped");
    (Peer::new("mini-engine", input, output), child)
}

/// Cutoff's UCI loop on a thread of this process, behind two pipes.
fn cutoff() -> (Peer, thread::JoinHandle<()>) {
    let (input_reader, input_writer) = std::io::pipe().expect("a pipe");
    let (output_reader, output_writer) = std::io::pipe().expect("a pipe");
    let engine = thread::spawn(move || {
        let mut uci = cutoff_uci::Uci::new(cutoff_uci::Output::new(output_writer));
        uci.run(BufReader::new(input_reader));
    });
    (Peer::new("cutoff", Box::new(input_writer), output_reader), engine)
}

/// Plays one game from the start position and returns the moves.
fn play(white: &mut Peer, black: &mut Peer) -> Vec<String> {
    let mut game = Game::default();
    let mut moves: Vec<String> = Vec::new();
    while game.outcome().is_none() && moves.len() < MAX_PLIES {
        let peer = if moves.len().is_multiple_of(2) { &mut *white } else { &mut *black };
        peer.send(&format!("position startpos moves {}", moves.join(" ")));
        peer.send("go depth 3");
        let line = peer.wait_for("bestmove");
        let text = line.split_whitespace().nth(1).unwrap_or("").to_string();
        if let Err(e) = game.play_uci(&text) {
            panic!("{} sent `{line}` in {}: {e}\ntranscript:\n{}", peer.name, game.board().fen(), peer.tail());
        }
        moves.push(text);
        // Wait until the engine is idle again before the next command.
        peer.send("isready");
        peer.wait_for("readyok");
    }
    moves
}

#[test]
fn the_example_engine_plays_legal_games_against_cutoff() {
    let (mut mini, mut child) = mini_engine();
    let (mut cutoff, engine) = cutoff();
    mini.start();
    cutoff.start();

    let first = play(&mut mini, &mut cutoff);
    mini.send("ucinewgame");
    cutoff.send("ucinewgame");
    let second = play(&mut cutoff, &mut mini);
    for moves in [&first, &second] {
        eprintln!("{} plies: {}", moves.len(), moves.join(" "));
        assert!(moves.len() >= 10, "a game of {} plies: {moves:?}", moves.len());
    }

    mini.send("quit");
    cutoff.send("quit");
    assert!(child.wait().expect("the mini-engine exits").success());
    engine.join().expect("Cutoff's UCI loop ends on quit");
}
