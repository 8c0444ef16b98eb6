//! The front-end's networks: the committed default network loads and evaluates sensibly, and
//! an engine with no network (a build that embeds none) says so when `UseNNUE` asks for one
//! and plays on with the hand-crafted evaluation. Both run in every build: the first reads the
//! committed file itself, the second builds its engine with [`Uci::with_embedded_network`].

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cutoff_board::Board;
use cutoff_uci::{Output, Uci, load_network};

/// UCI output collected in memory.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().write(bytes)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Lines {
    /// Takes the lines written so far.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes).unwrap().lines().map(str::to_owned).collect()
    }

    /// Takes lines until one starts with `bestmove` (which ends the list); fails after 60 s,
    /// a bound that only catches hangs.
    fn until_bestmove(&self) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut lines = Vec::new();
        loop {
            lines.extend(self.take());
            if lines.last().is_some_and(|l| l.starts_with("bestmove")) {
                return lines;
            }
            assert!(Instant::now() < deadline, "no bestmove within 60 s: {lines:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The committed default network, which builds embed unless `CUTOFF_EVALFILE` names another.
const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/networks/default.nnue");

fn committed_network() -> cutoff_nnue::Network {
    load_network(COMMITTED).unwrap_or_else(|e| panic!("{COMMITTED}: {e}"))
}

#[test]
fn the_committed_default_network_loads_and_evaluates() {
    let net = committed_network();
    let eval = |fen: &str| net.evaluate(&Board::from_fen(fen, Default::default()).unwrap());
    let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(start.abs() <= 60, "the start position is about level, got {start} cp");
    // White without its queen, from both sides to move: the evaluation is the side to move's.
    let white_to_move = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
    let black_to_move = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1");
    assert!(white_to_move <= -500, "a queen down is far behind, got {white_to_move} cp");
    assert!(black_to_move >= 500, "a queen up is far ahead, got {black_to_move} cp");
    // An endgame: king and queen against a lone king is won for the side with the queen.
    let kqk = eval("8/8/8/2k5/8/8/3QK3/8 w - - 0 1");
    assert!(kqk >= 500, "KQ v K, got {kqk} cp");
}

#[test]
fn the_committed_default_network_stays_under_16_mb() {
    // Every build carries it in the binary, so its size is a promise (docs/nnue.md, "Architecture").
    let bytes = std::fs::metadata(COMMITTED).unwrap_or_else(|e| panic!("{COMMITTED}: {e}")).len();
    assert!(bytes < 16_000_000, "{COMMITTED} is {bytes} bytes, over the 16 MB limit");
}

#[test]
fn the_embedded_network_is_the_committed_one() {
    // Builds of this repository embed networks/default.nnue unless CUTOFF_EVALFILE names
    // another file.
    if option_env!("CUTOFF_EVALFILE").is_some() {
        assert!(cutoff_uci::embeds_network() && cutoff_uci::embedded_network().is_some());
        return;
    }
    let embedded = cutoff_uci::embedded_network().expect("this build embeds networks/default.nnue");
    assert_eq!(*embedded, committed_network());
}

#[test]
fn use_nnue_without_a_network_says_so_and_plays_on() {
    let lines = Lines::default();
    let mut uci = Uci::with_embedded_network(Output::new(lines.clone()), None);
    uci.handle("setoption name UseNNUE value true");
    let out = lines.take();
    assert!(
        out.len() == 1 && out[0].starts_with("info string UseNNUE") && out[0].contains("hand-crafted"),
        "expected one info string, got {out:?}"
    );
    uci.handle("position startpos");
    uci.handle("go depth 3");
    let out = lines.until_bestmove();
    let mv = out.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(Board::default().parse_uci(mv).is_ok(), "illegal move {mv}: {out:?}");
    // The search scored with the hand-crafted evaluation: the start position near level.
    assert!(out.iter().any(|l| l.contains(" depth 3 ") && l.contains(" score cp ")), "{out:?}");
    // Asking for the built-in network again says there is none; the engine keeps playing.
    uci.handle("setoption name EvalFile value <empty>");
    assert_eq!(lines.take(), ["info string network: this build embeds none"]);
    uci.handle("go depth 2");
    let out = lines.until_bestmove();
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    assert!(!uci.handle("quit"));
}
