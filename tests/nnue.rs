//! End-to-end tests of the evaluation options over UCI (`UseNNUE`, `EvalFile`): a network
//! file is loaded and used by the search, and a missing, truncated or foreign file is reported
//! with `info string` while the current network stays in use.

mod common;

use common::{Engine, TempFile};
use cutoff_board::Board;
use cutoff_nnue::{INPUTS, Network};

/// A small network whose evaluation is the side to move's material minus the opponent's
/// (neuron 0 counts the perspective's own pieces, neuron 1 the enemy's), plus a constant:
/// distinct from the hand-crafted evaluation, so its use is visible in the scores.
fn material_network(bias_cp: i32) -> Network {
    let n = 16;
    let mut weights = vec![0i16; INPUTS * n];
    for feature in 0..INPUTS {
        let own = feature < INPUTS / 2;
        weights[feature * n + usize::from(!own)] = 6;
    }
    let mut out = vec![0i16; 2 * n];
    let one = cutoff_nnue::QB as i16; // an output weight of 1.0
    out[0] = one; // own pieces, side to move's perspective
    out[1] = -one; // enemy pieces, side to move's perspective
    let bias = bias_cp * 255 * cutoff_nnue::QB / cutoff_nnue::SCALE;
    Network::from_parts(n, weights, vec![0; n], out, vec![bias]).unwrap()
}

/// The score of the last `info ... score cp N` line of a search.
fn final_score(lines: &[String]) -> Option<i32> {
    lines.iter().rev().find_map(|l| {
        let mut words = l.split_whitespace().skip_while(|w| *w != "score").skip(1);
        (words.next()? == "cp").then(|| words.next()?.parse().ok()).flatten()
    })
}

#[test]
fn a_network_file_is_loaded_and_evaluates() {
    let net = material_network(777);
    let file = TempFile::new("nnue", "good", "net.nnue", &net.to_bytes());
    let mut e = Engine::spawn();
    let out = e.command(&format!("setoption name EvalFile value {}", file.path()));
    e.ensure(
        out.len() == 1 && out[0].starts_with("info string network") && out[0].contains("(768 -> 16) x 2 -> 1"),
        format!("loading a network should say so, got {out:?}"),
    );
    e.command("setoption name UseNNUE value true");
    // The network gives the side to move 777 cp with equal material, so a depth-1 search
    // (every reply evaluated from the opponent's side) scores about -777: far from anything
    // the hand-crafted evaluation gives.
    e.command("position startpos");
    let (lines, mv) = e.go("go depth 1");
    let score = final_score(&lines);
    e.ensure(score.is_some_and(|s| (-900..=-700).contains(&s)), format!("network score expected, got {lines:?}"));
    e.ensure(Board::default().parse_uci(&mv).is_ok(), format!("illegal move {mv}"));
    let out = e.command("eval");
    // 777 cp stored in the output bias's units reads back as 776 (truncation).
    let shown = |l: &String| l.starts_with("NNUE evaluation: 776 cp") || l.starts_with("NNUE evaluation: 777 cp");
    e.ensure(out.iter().any(shown), format!("eval shows the network: {out:?}"));
    // Deeper searches follow the moves with the accumulators (checked against a refresh in
    // debug builds) and stay legal.
    e.command("position startpos moves e2e4 d7d5 e4d5 d8d5 b1c3");
    let (_, mv) = e.go("go depth 6");
    e.ensure(mv.len() >= 4, format!("a move, got {mv}"));
    // Switching the network off goes back to the hand-crafted evaluation.
    e.command("setoption name UseNNUE value false");
    e.command("position startpos");
    let (lines, _) = e.go("go depth 1");
    let score = final_score(&lines);
    e.ensure(score.is_some_and(|s| s.abs() < 200), format!("hand-crafted score expected, got {lines:?}"));
    e.quit();
}

#[test]
fn bad_network_files_are_reported_and_the_current_network_stays() {
    let good = material_network(555).to_bytes();
    let good_file = TempFile::new("nnue", "current", "net.nnue", &good);
    let truncated = TempFile::new("nnue", "truncated", "net.nnue", &good[..good.len() - 3]);
    let mut corrupt_bytes = good.clone();
    corrupt_bytes[100] ^= 0x40;
    let corrupt = TempFile::new("nnue", "corrupt", "net.nnue", &corrupt_bytes);
    let foreign =
        TempFile::new("nnue", "foreign", "net.nnue", b"this is not a network, just some text of the wrong size");
    let missing = std::env::temp_dir().join("cutoff-no-such-dir/net.nnue").display().to_string();

    let mut e = Engine::spawn();
    e.command(&format!("setoption name EvalFile value {}", good_file.path()));
    e.command("setoption name UseNNUE value true");
    for (what, path) in [
        ("missing", missing),
        ("truncated", truncated.path()),
        ("corrupt", corrupt.path()),
        ("foreign", foreign.path()),
    ] {
        let out = e.command(&format!("setoption name EvalFile value {path}"));
        e.ensure(
            out.len() == 1 && out[0].starts_with("info string EvalFile") && out[0].contains("stays in use"),
            format!("a {what} file should give one info string, got {out:?}"),
        );
        // The network loaded before is still the one in use.
        e.command("position startpos");
        let (lines, mv) = e.go("go depth 1");
        let score = final_score(&lines);
        e.ensure(score.is_some_and(|s| (-640..=-480).contains(&s)), format!("after a {what} file: {lines:?}"));
        e.ensure(Board::default().parse_uci(&mv).is_ok(), format!("illegal move {mv}"));
    }
    e.quit();
}
