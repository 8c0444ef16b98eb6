//! The network's weights, the load-time overflow proof, and the output layer.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use cutoff_board::{Board, Color};

use crate::kernels::{self, BLOCK};
use crate::{
    HIDDEN_STEP, INPUTS, InputSet, Inputs, KingBuckets, MAX_HIDDEN, MAX_OUTPUT_BUCKETS, MIN_HIDDEN, NetworkError,
    NetworkPart, QA, QB, SCALE, output_bucket,
};

/// The most features active at once in one perspective, which the accumulator proof sums
/// the largest weights of: the input set's.
const MAX_ACTIVE: usize = <Inputs as InputSet>::MAX_ACTIVE;

/// The largest `Σ|w|` over one lane of output weights: `QA² × MAX_LANE_SUM ≤ i32::MAX`.
pub(crate) const MAX_LANE_SUM: u64 = i32::MAX as u64 / (QA as u64 * QA as u64);

// The documented promise: output weights within ±258 always pass, even with the 128 weights
// of a lane at N = MAX_HIDDEN.
const _: () = assert!((2 * MAX_HIDDEN / BLOCK) as u64 * 258 <= MAX_LANE_SUM);

/// A quantised `(K × 768 → N) × 2 → B` SCReLU network: `K` king buckets of 768 inputs per
/// perspective ([`KingBuckets`], `K` = 1 without), one hidden layer of `N` neurons shared by
/// both perspectives, and `B` output neurons (output buckets, 1 to 8), of which a position
/// uses the one of its piece count ([`output_bucket`](crate::output_bucket)). See the crate
/// documentation for the architecture, the quantisation and the file format.
///
/// A `Network` is immutable and can be shared between search threads in an
/// [`Arc`](alloc::sync::Arc); each thread keeps its own [`AccumulatorStack`](crate::AccumulatorStack).
/// Every `Network` has passed the overflow checks of [`Network::from_parts`], so its
/// evaluations are exact for every position.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_nnue::{INPUTS, Network};
/// // Every weight zero except the output bias: a constant evaluation.
/// let n = 32;
/// let net = Network::from_parts(n, vec![0; INPUTS * n], vec![0; n], vec![0; 2 * n], vec![50 * 255 * 256 / 200]).unwrap();
/// assert_eq!(net.evaluate(&Board::default()), 50);
/// assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// The input set: today king buckets and mirroring.
    inputs: Inputs,
    /// `K × INPUTS × hidden`, feature-major: the `hidden` weights of feature 0 first.
    feature_weights: Box<[i16]>,
    feature_bias: Box<[i16]>,
    /// `buckets × 2 × hidden`, bucket-major; in each bucket the side to move's half, then the
    /// other side's.
    output_weights: Box<[i16]>,
    /// One per bucket.
    output_bias: Box<[i32]>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("inputs", &self.inputs)
            .field("output_buckets", &self.output_bias.len())
            .field("output_bias", &self.output_bias)
            .finish()
    }
}

/// Checks that `hidden` is a multiple of [`HIDDEN_STEP`] from [`MIN_HIDDEN`] to [`MAX_HIDDEN`].
pub(crate) fn check_hidden(hidden: usize) -> Result<(), NetworkError> {
    if (MIN_HIDDEN..=MAX_HIDDEN).contains(&hidden) && hidden.is_multiple_of(HIDDEN_STEP) {
        Ok(())
    } else {
        Err(NetworkError::BadHiddenSize(hidden))
    }
}

/// Proves that no accumulator leaves the `i16` range: an accumulator is its neuron's bias plus
/// the weights of at most [`MAX_ACTIVE`] distinct features, all of one king bucket (the
/// perspective's), so `|bias|` plus the [`MAX_ACTIVE`] largest `|weight|` of the neuron within
/// each bucket's 768 rows bounds it. `weights` holds whole buckets of `INPUTS × hidden`.
fn check_accumulators(hidden: usize, weights: &[i16], bias: &[i16]) -> Result<(), NetworkError> {
    let mut column = vec![0u16; INPUTS];
    for (neuron, &b) in bias.iter().enumerate() {
        for bucket in weights.chunks_exact(INPUTS * hidden) {
            for (c, row) in column.iter_mut().zip(bucket.chunks_exact(hidden)) {
                *c = row[neuron].unsigned_abs();
            }
            let (largest, _, _) = column.select_nth_unstable_by(MAX_ACTIVE, |a, b| b.cmp(a));
            let bound = u32::from(b.unsigned_abs()) + largest.iter().map(|&w| u32::from(w)).sum::<u32>();
            if bound > i16::MAX as u32 {
                return Err(NetworkError::AccumulatorCouldOverflow { neuron });
            }
        }
    }
    Ok(())
}

/// Proves that the output sum fits 16 `i32` lanes: in each bucket (`2 × hidden` weights), lane
/// `j` sums `screlu(a) × w[k]` over the `k` with `k % 16 == j`, each `screlu(a)` at most `QA²`,
/// so in any order every partial sum is at most `QA² × Σ|w[k]|` in magnitude. The AVX2 and
/// AVX-512 kernels ([`kernels::output_sum`]) accumulate such `i32` lanes and rely on it; the
/// portable kernel sums in `i64` and does not need it.
pub(crate) fn check_output(hidden: usize, weights: &[i16]) -> Result<(), NetworkError> {
    for (bucket, weights) in weights.chunks_exact(2 * hidden).enumerate() {
        let mut lanes = [0u64; BLOCK];
        for (k, &w) in weights.iter().enumerate() {
            lanes[k % BLOCK] += u64::from(w.unsigned_abs());
        }
        if let Some(lane) = lanes.iter().position(|&sum| sum > MAX_LANE_SUM) {
            return Err(NetworkError::OutputCouldOverflow { bucket, lane });
        }
    }
    Ok(())
}

/// The evaluation formula, written once: `sum` is `Σ screlu(acc[i]) × w[i]` over both halves
/// (in `QA × QA × QB` units), `bias` the output bias (in `QA × QB` units); the result is
/// `(sum / QA + bias) × SCALE / (QA × QB)` centipawns, each division truncating toward zero.
///
/// Computed in `i64`. `|sum| ≤ 16 × i32::MAX` (16 lanes, each proven to fit), so the result
/// is at most about `7 × 10⁶` in magnitude and fits an `i32`.
#[inline]
fn centipawns(sum: i64, bias: i32) -> i32 {
    let cp = (sum / i64::from(QA) + i64::from(bias)) * i64::from(SCALE) / i64::from(QA * QB);
    cp as i32
}

impl Network {
    /// Builds a network from its quantised parts (as a trainer does; [`Network::to_bytes`]
    /// then writes the file):
    ///
    /// * `feature_weights`: `768 × hidden` values, feature-major (the `hidden` weights of
    ///   feature 0 first; see [`feature_index`](crate::feature_index)), scaled by [`QA`];
    /// * `feature_bias`: `hidden` values, scaled by [`QA`];
    /// * `output_weights`: `B × 2 × hidden` values, one block of `2 × hidden` per output bucket
    ///   (bucket 0 first), in each the side to move's half first, scaled by [`QB`];
    /// * `output_bias`: the `B` output biases, scaled by `QA × QB`. Their number is the number
    ///   of output buckets `B` (1 to [`MAX_OUTPUT_BUCKETS`](crate::MAX_OUTPUT_BUCKETS)).
    ///
    /// # Errors
    ///
    /// [`NetworkError::BadHiddenSize`] unless `hidden` is a multiple of 16 from 16 to 1024;
    /// [`NetworkError::UnsupportedOutputBuckets`] unless there are 1 to 8 output biases;
    /// [`NetworkError::WrongPartLength`] if a part has the wrong length; and the two overflow
    /// proofs:
    ///
    /// * [`NetworkError::AccumulatorCouldOverflow`]: every accumulator is an `i16` equal to
    ///   its bias plus the weights of at most 32 features (one per piece), so for every neuron
    ///   `|bias| + (the 32 largest |weight| of that neuron) ≤ 32767` is required.
    /// * [`NetworkError::OutputCouldOverflow`]: the output sum must fit 16 `i32` lanes, lane
    ///   `j` holding the terms of the bucket's output weights `w[k]` with `k % 16 == j`; each
    ///   term is at most `QA² × |w[k]|`, so for every bucket and lane
    ///   `QA² × Σ|w[k]| ≤ i32::MAX` (that is, `Σ|w[k]| ≤ 33025`) is required. A lane has at
    ///   most 128 weights (N = 1024), so output weights within ±258 (±1.01 before
    ///   quantisation) always pass. (The SIMD kernels sum in such `i32` lanes and rely on
    ///   the bound; the portable one sums in `i64`. See the crate documentation.)
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, Network, NetworkError, NetworkPart};
    /// let n = 16;
    /// let ok = Network::from_parts(n, vec![1; INPUTS * n], vec![0; n], vec![-3; 2 * n], vec![0]);
    /// assert_eq!(ok.unwrap().hidden(), 16);
    /// let short = Network::from_parts(n, vec![1; INPUTS * n], vec![0; n], vec![-3; n], vec![0]);
    /// assert_eq!(short, Err(NetworkError::WrongPartLength { part: NetworkPart::OutputWeights, expected: 32, found: 16 }));
    /// // Eight output buckets: eight biases and eight blocks of 2N output weights.
    /// let bucketed = Network::from_parts(n, vec![1; INPUTS * n], vec![0; n], vec![-3; 8 * 2 * n], vec![0; 8]);
    /// assert_eq!(bucketed.unwrap().output_buckets(), 8);
    /// let nine = Network::from_parts(n, vec![1; INPUTS * n], vec![0; n], vec![-3; 9 * 2 * n], vec![0; 9]);
    /// assert_eq!(nine, Err(NetworkError::UnsupportedOutputBuckets(9)));
    /// let mut out = vec![0; 2 * 2 * n];
    /// out[2 * n + 5] = i16::MAX; // bucket 1, lane 5
    /// out[2 * n + 21] = i16::MAX;
    /// let huge = Network::from_parts(n, vec![1; INPUTS * n], vec![0; n], out, vec![0; 2]);
    /// assert_eq!(huge, Err(NetworkError::OutputCouldOverflow { bucket: 1, lane: 5 }));
    /// ```
    pub fn from_parts(
        hidden: usize,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        Network::from_bucketed_parts(
            KingBuckets::NONE,
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        )
    }

    /// Builds a network with king-bucketed inputs: as [`Network::from_parts`], with
    /// `feature_weights` holding `K × 768 × hidden` values, bucket 0's 768 rows first (feature
    /// `f` of [`KingBuckets::feature`] is row `f`). The accumulator proof applies to each
    /// bucket's 768 rows on their own, since a perspective's features all lie in one bucket.
    ///
    /// # Errors
    ///
    /// Those of [`Network::from_parts`].
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_nnue::{INPUTS, KingBuckets, Network, NetworkError, NetworkPart};
    /// let n = 16;
    /// let layout = KingBuckets::new(true, core::array::from_fn(|sq| (sq / 8) as u8)).unwrap(); // 4 buckets
    /// let net = Network::from_bucketed_parts(layout, n, vec![3; 4 * INPUTS * n], vec![0; n], vec![1; 2 * n], vec![0]);
    /// let net = net.unwrap();
    /// assert_eq!(net.king_buckets(), &layout);
    /// assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    /// let short = Network::from_bucketed_parts(layout, n, vec![3; INPUTS * n], vec![0; n], vec![1; 2 * n], vec![0]);
    /// let expected = 4 * INPUTS * n;
    /// assert_eq!(short, Err(NetworkError::WrongPartLength { part: NetworkPart::FeatureWeights, expected, found: INPUTS * n }));
    /// ```
    pub fn from_bucketed_parts(
        king_buckets: KingBuckets,
        hidden: usize,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        check_hidden(hidden)?;
        let buckets = output_bias.len();
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return Err(NetworkError::UnsupportedOutputBuckets(u32::try_from(buckets).unwrap_or(u32::MAX)));
        }
        let parts = [
            (NetworkPart::FeatureWeights, feature_weights.len(), king_buckets.inputs() * hidden),
            (NetworkPart::FeatureBias, feature_bias.len(), hidden),
            (NetworkPart::OutputWeights, output_weights.len(), buckets * 2 * hidden),
        ];
        for (part, found, expected) in parts {
            if found != expected {
                return Err(NetworkError::WrongPartLength { part, expected, found });
            }
        }
        check_accumulators(hidden, &feature_weights, &feature_bias)?;
        check_output(hidden, &output_weights)?;
        Ok(Network {
            hidden,
            inputs: king_buckets,
            feature_weights: feature_weights.into_boxed_slice(),
            feature_bias: feature_bias.into_boxed_slice(),
            output_weights: output_weights.into_boxed_slice(),
            output_bias: output_bias.into_boxed_slice(),
        })
    }

    /// The hidden-layer size `N` (per perspective).
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, Network};
    /// let net = Network::from_parts(64, vec![0; INPUTS * 64], vec![0; 64], vec![0; 128], vec![0]).unwrap();
    /// assert_eq!(net.hidden(), 64);
    /// ```
    #[inline]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of output buckets `B` (1 to 8; see [`output_bucket`](crate::output_bucket)).
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, Network};
    /// let net = Network::from_parts(16, vec![0; INPUTS * 16], vec![0; 16], vec![0; 4 * 32], vec![0; 4]).unwrap();
    /// assert_eq!(net.output_buckets(), 4);
    /// ```
    #[inline]
    pub fn output_buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The input layout: king buckets and mirroring ([`KingBuckets::NONE`] for a network of
    /// format version 1 or 2).
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, KingBuckets, Network};
    /// let net = Network::from_parts(16, vec![0; INPUTS * 16], vec![0; 16], vec![0; 32], vec![0]).unwrap();
    /// assert_eq!(net.king_buckets(), &KingBuckets::NONE);
    /// ```
    #[inline]
    pub fn king_buckets(&self) -> &KingBuckets {
        &self.inputs
    }

    /// The input set ([`Inputs`]: this build's kind of input; see [`InputSet`]). Today the
    /// same as [`king_buckets`](Self::king_buckets).
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, InputSet, Network};
    /// let net = Network::from_parts(16, vec![0; INPUTS * 16], vec![0; 16], vec![0; 32], vec![0]).unwrap();
    /// assert_eq!(net.inputs().inputs(), INPUTS);
    /// ```
    #[inline]
    pub fn inputs(&self) -> &Inputs {
        &self.inputs
    }

    /// The `K × 768 × N` feature weights, feature-major (scaled by [`QA`]).
    #[inline]
    pub fn feature_weights(&self) -> &[i16] {
        &self.feature_weights
    }

    /// The `N` feature biases (scaled by [`QA`]).
    #[inline]
    pub fn feature_bias(&self) -> &[i16] {
        &self.feature_bias
    }

    /// The `B × 2N` output weights, bucket by bucket, in each the side to move's half first
    /// (scaled by [`QB`]).
    #[inline]
    pub fn output_weights(&self) -> &[i16] {
        &self.output_weights
    }

    /// The `B` output biases, one per bucket (scaled by `QA × QB`).
    #[inline]
    pub fn output_bias(&self) -> &[i32] {
        &self.output_bias
    }

    /// The evaluation of `board` in centipawns, from the side to move's point of view,
    /// computed from scratch (both accumulators refreshed). For tests and tools; a search
    /// updates an [`AccumulatorStack`](crate::AccumulatorStack) incrementally instead.
    ///
    /// The result is `(sum / QA + b) × SCALE / (QA × QB)` with
    /// `sum = Σᵢ screlu(acc_stm[i]) × w[i] + Σᵢ screlu(acc_other[i]) × w[N + i]`, where `w` and
    /// `b` are the output weights and bias of the position's bucket
    /// ([`output_bucket`](crate::output_bucket) of its piece count), each division truncating
    /// toward zero. It is not clamped: a search should clamp it below its mate scores.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_nnue::{INPUTS, Network};
    /// let n = 16;
    /// // Feature weights of 1 on every neuron: each accumulator holds the number of pieces.
    /// // One output weight of 400 on the side to move's first neuron.
    /// let mut out = vec![0; 2 * n];
    /// out[0] = 400;
    /// let net = Network::from_parts(n, vec![1; INPUTS * n], vec![0; n], out, vec![0]).unwrap();
    /// // 32 pieces: sum = screlu(32) * 400 = 409600, and 409600 / 255 * 200 / (255 * 256) = 4.
    /// assert_eq!(net.evaluate(&Board::default()), 4);
    /// ```
    pub fn evaluate(&self, board: &Board) -> i32 {
        let n = self.hidden;
        let mut acc = vec![0i16; 2 * n];
        let (white, black) = acc.split_at_mut(n);
        self.refresh(board, Color::White, white);
        self.refresh(board, Color::Black, black);
        let pieces = board.occupied().len();
        match board.side_to_move() {
            Color::White => self.output(white, black, pieces),
            Color::Black => self.output(black, white, pieces),
        }
    }

    /// The accumulator of `perspective` in `board` (`N` values, in `QA` units), computed from
    /// scratch: the biases plus the weights of the features of every piece. For tests and
    /// tools, like [`Network::evaluate`].
    ///
    /// ```
    /// use cutoff_board::{Board, Color};
    /// use cutoff_nnue::{INPUTS, Network};
    /// let net = Network::from_parts(16, vec![1; INPUTS * 16], vec![-5; 16], vec![0; 32], vec![0]).unwrap();
    /// assert_eq!(net.accumulator(&Board::default(), Color::Black), vec![27; 16]); // 32 pieces - 5
    /// ```
    pub fn accumulator(&self, board: &Board, perspective: Color) -> Vec<i16> {
        let mut acc = vec![0; self.hidden];
        self.refresh(board, perspective, &mut acc);
        acc
    }

    /// The `N` weights of input feature `feature` (`0..K × 768`).
    #[inline(always)]
    pub(crate) fn row(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// Writes `perspective`'s accumulator of `board` into `out` (`N` values).
    pub(crate) fn refresh(&self, board: &Board, perspective: Color, out: &mut [i16]) {
        let view = self.inputs.view(perspective, board.king(perspective));
        out.copy_from_slice(&self.feature_bias);
        for sq in board.occupied() {
            if let Some(piece) = board.piece_on(sq) {
                kernels::add(out, self.row(Inputs::index(view, piece.color(), piece.kind(), sq)));
            }
        }
    }

    /// The output layer: centipawns for the side whose accumulator is `stm`, in a position
    /// with `pieces` pieces on the board.
    #[inline]
    pub(crate) fn output(&self, stm: &[i16], other: &[i16], pieces: u32) -> i32 {
        let n = self.hidden;
        let bucket = output_bucket(pieces, self.output_bias.len());
        let sum = kernels::output_sum(stm, other, &self.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n]);
        centipawns(sum, self.output_bias[bucket])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_limit_is_the_largest_that_fits() {
        assert_eq!(MAX_LANE_SUM, 33_025);
        let qa2 = (QA * QA) as u64;
        assert_eq!(i32::MAX as u64 / qa2, MAX_LANE_SUM);
        assert!((MAX_LANE_SUM + 1) * qa2 > i32::MAX as u64 && MAX_LANE_SUM * qa2 <= i32::MAX as u64);
    }

    #[test]
    fn output_check_is_exact_at_the_limit() {
        // Lane 0 of N = 16 holds w[0] and w[16].
        let mut w = vec![0i16; 32];
        w[0] = i16::MAX;
        w[16] = (MAX_LANE_SUM - i16::MAX as u64) as i16;
        assert_eq!(check_output(16, &w), Ok(()));
        w[16] += 1;
        assert_eq!(check_output(16, &w), Err(NetworkError::OutputCouldOverflow { bucket: 0, lane: 0 }));
        // At the limit, the worst case really reaches i32 without overflowing it.
        w[16] -= 1;
        let net = Network::from_parts(16, vec![0; INPUTS * 16], vec![255; 16], w, vec![0]).unwrap();
        let acc = [255i16; 16];
        let expected = (MAX_LANE_SUM as i64 * 65_025) / 255 * 200 / (255 * 256);
        assert_eq!(i64::from(net.output(&acc, &acc, 32)), expected);
    }

    #[test]
    fn each_bucket_is_checked_and_used_on_its_own() {
        // Bucket b's weights are all b + 1; the lanes of each bucket are proven separately, so
        // the sum over all buckets may exceed what one lane allows.
        let n = 512;
        let w: Vec<i16> = (0..8).flat_map(|b| vec![(b + 1) as i16 * 64; 2 * n]).collect();
        let net = Network::from_parts(n, vec![0; INPUTS * n], vec![255; n], w, (0..8).collect()).unwrap();
        let acc = vec![255i16; n];
        for pieces in 2..=32 {
            let b = output_bucket(pieces, 8) as i64;
            let sum = 2 * n as i64 * 65_025 * (b + 1) * 64;
            assert_eq!(i64::from(net.output(&acc, &acc, pieces)), centipawns(sum, b as i32) as i64, "{pieces}");
        }
    }

    #[test]
    fn accumulator_check_counts_the_32_largest_weights() {
        let n = 16;
        let mut weights = vec![0i16; INPUTS * n];
        // Neuron 3: 32 features of weight 1000 and bias 767 reach exactly 32767.
        for f in 0..32 {
            weights[f * 7 * n + 3] = if f % 2 == 0 { 1000 } else { -1000 };
        }
        let mut bias = vec![0i16; n];
        bias[3] = -767;
        assert_eq!(check_accumulators(n, &weights, &bias), Ok(()));
        bias[3] = -768;
        assert_eq!(check_accumulators(n, &weights, &bias), Err(NetworkError::AccumulatorCouldOverflow { neuron: 3 }));
        // A 33rd large weight does not matter on its own: at most 32 pieces are on the board.
        bias[3] = 0;
        weights[700 * n + 3] = 1000;
        assert_eq!(check_accumulators(n, &weights, &bias), Ok(()));
    }

    #[test]
    fn centipawns_truncate_toward_zero() {
        let one = QA * QB; // an output of 1.0 in bias units
        assert_eq!(centipawns(0, one), SCALE);
        assert_eq!(centipawns(0, -one), -SCALE);
        assert_eq!(centipawns(i64::from(one) * i64::from(QA), 0), SCALE);
        assert_eq!(centipawns(1, 1), 0);
        assert_eq!(centipawns(-1, -1), 0);
        assert_eq!(centipawns(-1200 * i64::from(QA), 0), -3); // -3.68 truncates to -3
        // The largest possible magnitude fits an i32 comfortably.
        assert_eq!(centipawns(16 * i64::from(i32::MAX), i32::MAX), 6_992_119);
        assert_eq!(centipawns(-16 * i64::from(i32::MAX), i32::MIN), -6_992_119);
    }
}
