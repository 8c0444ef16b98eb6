//! `cargo xtask widen`: the same network with a wider hidden layer, the new neurons zero.
//!
//! A neuron whose feature weights, bias and output weights are all zero adds nothing to the
//! output, so the widened network evaluates every position exactly as the original, and the
//! engine searches the same tree with it. `cutoff bench --evalfile` with both files then
//! measures what the width alone costs in speed, on the same nodes: how the hidden sizes that
//! a width test trains compare in nps before any of them is trained.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cutoff_nnue::Network;

use crate::util::Result;

#[derive(Debug, Args)]
pub struct WidenArgs {
    /// The network file to widen.
    pub network: PathBuf,

    /// The new hidden size: a multiple of 16, at least the network's, at most 1024.
    #[arg(long, value_name = "N")]
    pub hidden: usize,

    /// Where to write the widened network.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `network` with `hidden` neurons, the first ones its own and the rest zero.
fn widen(network: &Network, hidden: usize) -> Result<Network> {
    let n = network.hidden();
    if hidden < n {
        return Err(format!("--hidden {hidden} is narrower than the network's {n} neurons").into());
    }
    // Checked before the weights are allocated for it.
    if hidden > cutoff_nnue::MAX_HIDDEN || !hidden.is_multiple_of(cutoff_nnue::HIDDEN_STEP) {
        return Err(format!(
            "--hidden {hidden} is not a multiple of {} up to {}",
            cutoff_nnue::HIDDEN_STEP,
            cutoff_nnue::MAX_HIDDEN
        )
        .into());
    }
    let mut feature_weights = vec![0i16; network.king_buckets().inputs() * hidden];
    for (wide, row) in feature_weights.chunks_exact_mut(hidden).zip(network.feature_weights().chunks_exact(n)) {
        wide[..n].copy_from_slice(row);
    }
    let mut feature_bias = vec![0i16; hidden];
    feature_bias[..n].copy_from_slice(network.feature_bias());
    // Each output bucket's weights: the side to move's N, then the other side's N.
    let mut output_weights = vec![0i16; network.output_buckets() * 2 * hidden];
    for (wide, half) in output_weights.chunks_exact_mut(hidden).zip(network.output_weights().chunks_exact(n)) {
        wide[..n].copy_from_slice(half);
    }
    Network::from_bucketed_parts(
        *network.king_buckets(),
        hidden,
        feature_weights,
        feature_bias,
        output_weights,
        network.output_bias().to_vec(),
    )
    .map_err(|e| format!("the widened network is not valid: {e}").into())
}

pub fn run(args: &WidenArgs) -> Result<ExitCode> {
    let bytes = std::fs::read(&args.network).map_err(|e| format!("{}: {e}", args.network.display()))?;
    let network = Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", args.network.display()))?;
    let wide = widen(&network, args.hidden)?;
    std::fs::write(&args.out, wide.to_bytes()).map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!("widen: {} neurons -> {}: wrote {}", network.hidden(), args.hidden, args.out.display());
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_board::Board;

    fn net9() -> Network {
        let path = crate::util::data_dir().expect("the repository's data/").join("networks/net9.nnue");
        Network::from_bytes(&std::fs::read(path).expect("net9.nnue")).expect("a valid network")
    }

    #[test]
    fn a_widened_network_evaluates_every_position_as_the_original() {
        let net = net9();
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R b K - 5 40",
        ];
        for hidden in [net.hidden(), 768, 1024] {
            let wide = widen(&net, hidden).expect("widens");
            assert_eq!(wide.hidden(), hidden);
            for fen in fens {
                let board: Board = fen.parse().expect("a legal FEN");
                assert_eq!(wide.evaluate(&board), net.evaluate(&board), "{fen} at {hidden} neurons");
            }
        }
    }

    #[test]
    fn narrowing_and_sizes_the_engine_cannot_read_are_refused() {
        for hidden in [256, 520, 1040, usize::MAX] {
            assert!(widen(&net9(), hidden).is_err(), "{hidden}");
        }
    }
}
