//! Shared helpers for the integration tests: a seeded generator, random networks, start
//! positions and random move choice.
#![allow(dead_code)]

use cutoff_board::{Board, CastlingMode, Move};
use cutoff_nnue::{INPUTS, KingBuckets, Network};

/// The workspace's seeded generator with the helpers the tests need.
pub struct TestRng(cutoff_board::SplitMix64);

impl TestRng {
    pub fn new(seed: u64) -> TestRng {
        TestRng(cutoff_board::SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is irrelevant here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn between(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as usize) as i32
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// A random network of `hidden` neurons: feature weights in `±feature`, biases in
/// `±bias`, output weights in `±output`, and output biases of up to ±200 cp. It has 1, 8 or 5
/// output buckets, by the seed modulo 3.
pub fn random_network(seed: u64, hidden: usize, feature: i32, bias: i32, output: i32) -> Network {
    let buckets = [1, 8, 5][(seed % 3) as usize];
    let mut rng = TestRng::new(seed);
    let mut values = |n: usize, limit: i32| (0..n).map(|_| rng.between(-limit, limit) as i16).collect::<Vec<_>>();
    let feature_weights = values(INPUTS * hidden, feature);
    let feature_bias = values(hidden, bias);
    let output_weights = values(buckets * 2 * hidden, output);
    let mut rng = TestRng::new(seed ^ 0xB1A5);
    let output_bias = (0..buckets).map(|_| rng.between(-8_160, 8_160)).collect();
    Network::from_parts(hidden, feature_weights, feature_bias, output_weights, output_bias).unwrap()
}

/// A random network with king-bucketed inputs `layout` (weights as [`random_network`]'s), 1, 8
/// or 5 output buckets by the seed modulo 3.
pub fn bucketed_network(seed: u64, hidden: usize, layout: KingBuckets, feature: i32) -> Network {
    let buckets = [1, 8, 5][(seed % 3) as usize];
    let mut rng = TestRng::new(seed);
    let mut values = |n: usize, limit: i32| (0..n).map(|_| rng.between(-limit, limit) as i16).collect::<Vec<_>>();
    let feature_weights = values(layout.inputs() * hidden, feature);
    let feature_bias = values(hidden, 120);
    let output_weights = values(buckets * 2 * hidden, 127);
    let output_bias = (0..buckets).map(|i| 1_000 * i as i32 - 3_000).collect();
    Network::from_bucketed_parts(layout, hidden, feature_weights, feature_bias, output_weights, output_bias).unwrap()
}

/// Layouts for the tests: 8 buckets mirrored (by pairs of files of the half board and rank
/// pairs: every bucket has king squares on both sides of the mirror line's neighbours), 4
/// buckets not mirrored, 1 bucket mirrored, and 16 mirrored.
pub fn layouts() -> Vec<KingBuckets> {
    vec![
        KingBuckets::new(true, std::array::from_fn(|sq| ((sq / 8).min(3) * 2 + (sq % 4) / 2) as u8)).unwrap(),
        KingBuckets::new(false, std::array::from_fn(|sq| ((sq / 4) % 4) as u8)).unwrap(),
        KingBuckets::new(true, [0; 32]).unwrap(),
        KingBuckets::new(true, std::array::from_fn(|sq| (sq / 2) as u8)).unwrap(),
    ]
}

/// A network like a trained one: small feature weights (about ±0.4 before quantisation),
/// output weights within the usual clipping (about ±2).
pub fn realistic_network(seed: u64, hidden: usize) -> Network {
    random_network(seed, hidden, 100, 120, 127)
}

/// A network near both overflow limits: 32 feature weights of ±1000 plus a bias of ±700
/// reach 32700, output weights of ±258 fill a lane of N = 1024.
pub fn extreme_network(seed: u64, hidden: usize) -> Network {
    random_network(seed, hidden, 1000, 700, 258)
}

pub fn standard(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

pub fn chess960(fen: &str) -> Board {
    Board::from_fen(fen, CastlingMode::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Chess960 start positions, several with castlings where the king or the rook stays put
/// or where they swap squares, some with empty back ranks so that castling comes soon.
pub fn chess960_starts() -> Vec<Board> {
    [
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", // O-O: king f1 and rook g1 swap
        "nrbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQNKR w HBhb - 0 1", // O-O: the king stays on g1
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
        "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w GEge - 0 1", // swap; O-O-O: rook e1 -> d1
        "1rk4r/pppppppp/8/8/8/8/PPPPPPPP/1RK4R w HBhb - 0 1", // O-O-O: the king stays on c1
        "3rk2r/pppppppp/8/8/8/8/PPPPPPPP/3RK2R w HDhd - 0 1", // O-O-O: the rook stays on d1
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",   // the king crosses the board
        "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1", // O-O: king stays on g1
    ]
    .into_iter()
    .map(chess960)
    .collect()
}

/// Standard positions rich in en passant, promotions, captures and castling.
pub fn tactical_starts() -> Vec<Board> {
    [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "7k/PPPP4/8/8/8/8/4pppp/K7 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/1pPpP3/8/8/PpPpPpP1/7K w - d6 0 1",
        "r3k2r/8/8/pPpPpPpP/8/8/8/R3K2R w KQkq a6 0 1",
    ]
    .into_iter()
    .map(standard)
    .collect()
}

/// Every start position of the tests: the standard one, Chess960 ones, tactical ones.
pub fn all_starts() -> Vec<Board> {
    let mut starts = vec![Board::default()];
    starts.extend(chess960_starts());
    starts.extend(tactical_starts());
    starts
}

/// Castling, en passant and promotions are rare among legal moves; pick one of them half
/// the time they are available, otherwise any legal move. `None` when there is none.
pub fn pick_move(board: &Board, rng: &mut TestRng) -> Option<Move> {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let special: Vec<Move> =
        moves.iter().copied().filter(|mv| mv.is_castle() || mv.is_en_passant() || mv.is_promotion()).collect();
    if !special.is_empty() && rng.one_in(2) {
        return Some(special[rng.below(special.len())]);
    }
    Some(moves[rng.below(moves.len())])
}
