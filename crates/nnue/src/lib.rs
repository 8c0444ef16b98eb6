#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]
#![deny(unsafe_code)]

extern crate alloc;
#[cfg(test)]
extern crate std;

mod accumulator;
mod error;
mod format;
mod inputs;
mod kernels;
mod layout;
mod network;

pub use accumulator::AccumulatorStack;
pub use error::{NetworkError, NetworkPart};
pub use inputs::{InputSet, Inputs};
pub use layout::{KingBucketView, KingBuckets, MAX_KING_BUCKETS};
pub use network::Network;

use cutoff_board::{Color, PieceType, Square};

/// The number of input features of one perspective and one king bucket: 2 colours × 6 piece
/// types × 64 squares. A network with `K` king buckets ([`KingBuckets`]) has `K × 768`.
///
/// ```
/// assert_eq!(cutoff_nnue::INPUTS, 768);
/// ```
pub const INPUTS: usize = 768;

/// The activation's clamp, and the scale of the feature weights and biases: a float weight
/// `x` is stored as the `i16` `round(x * QA)`, and SCReLU is `clamp(v, 0, QA)²`.
///
/// ```
/// assert_eq!(cutoff_nnue::QA, 255);
/// ```
pub const QA: i32 = 255;

/// The scale of the output weights: a float output weight `x` is stored as `round(x * QB)`.
/// The output bias is stored as the `i32` `round(x * QA * QB)`.
///
/// 256 since format version 2. Version 1 used 64, and rounding the output weights to 1/64
/// moved `net3`'s evaluations by 8.4 cp on average (measured by the trainer, the feature
/// weights' rounding alone giving 1.9 cp); at 1/256 that error is a quarter. Version 1
/// files are still read, their output weights and bias multiplied by 4: the same weights,
/// and the same evaluations up to the last division's truncation (rarely 1 cp apart).
///
/// ```
/// assert_eq!(cutoff_nnue::QB, 256);
/// ```
pub const QB: i32 = 256;

/// The factor from the network's output (a win-probability logit) to centipawns: the
/// network computes `output * SCALE` where the trainer's target is `sigmoid(cp / SCALE)`.
///
/// 200 is about `1 / K` of the hand-crafted evaluation's tuner (`docs/tuning.md`), the scale on
/// which Cutoff's search scores map to win probability, so the network's centipawns are the
/// search's centipawns and the search's margins need no rescaling.
///
/// ```
/// assert_eq!(cutoff_nnue::SCALE, 200);
/// ```
pub const SCALE: i32 = 200;

/// The smallest hidden-layer size `N` a network may have.
pub const MIN_HIDDEN: usize = 16;

/// The largest hidden-layer size `N` a network may have.
pub const MAX_HIDDEN: usize = 1024;

/// `N` must be a multiple of this: the inner loops work on blocks of 16 neurons (one AVX2
/// register of `i16`, two of `i32`), with no remainder loop.
///
/// ```
/// use cutoff_nnue::{HIDDEN_STEP, MAX_HIDDEN, MIN_HIDDEN};
/// assert_eq!((MIN_HIDDEN, MAX_HIDDEN, HIDDEN_STEP), (16, 1024, 16));
/// ```
pub const HIDDEN_STEP: usize = 16;

/// The most output buckets a network may have (see [`output_bucket`]).
///
/// ```
/// assert_eq!(cutoff_nnue::MAX_OUTPUT_BUCKETS, 8);
/// ```
pub const MAX_OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces on the board (kings included), for a
/// network with `buckets` output buckets: `(pieces - 2) × buckets / 32`, at most
/// `buckets - 1`. A network with output buckets has one output neuron per bucket and
/// evaluates each position with its bucket's neuron, so that, for example, endgames and
/// middlegames weigh the hidden neurons differently. With 8 buckets, positions of 2 to 5
/// pieces use bucket 0, 6 to 9 bucket 1, ..., 30 to 32 bucket 7; with 1 bucket every position
/// uses bucket 0.
///
/// ```
/// use cutoff_nnue::output_bucket;
/// assert_eq!(output_bucket(32, 8), 7);
/// assert_eq!(output_bucket(5, 8), 0);
/// assert_eq!(output_bucket(6, 8), 1);
/// assert_eq!(output_bucket(17, 1), 0);
/// ```
#[inline(always)]
pub const fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let bucket = (pieces.saturating_sub(2) as usize * buckets) / 32;
    if bucket < buckets { bucket } else { buckets - 1 }
}

// `feature_index` relies on the board crate's discriminants: pawn = 0 ... king = 5,
// White = 0, Black = 1, a1 = 0 ... h8 = 63.
const _: () = {
    assert!(PieceType::Pawn as usize == 0 && PieceType::Knight as usize == 1);
    assert!(PieceType::Bishop as usize == 2 && PieceType::Rook as usize == 3);
    assert!(PieceType::Queen as usize == 4 && PieceType::King as usize == 5);
    assert!(Color::White as usize == 0 && Color::Black as usize == 1);
    assert!(Square::A1 as usize == 0 && Square::H1 as usize == 7 && Square::H8 as usize == 63);
};

/// The input feature, seen from `perspective`, of a piece of `piece_color` and type `piece`
/// on `sq`:
///
/// `((piece_color != perspective) * 6 + piece) * 64 + rel(sq)`
///
/// where `piece` is pawn = 0, knight = 1, bishop = 2, rook = 3, queen = 4, king = 5, squares
/// are a1 = 0 … h8 = 63, and `rel(sq)` is `sq` for White and `sq ^ 56` (the square mirrored
/// vertically) for Black. Each side therefore sees its own pieces in features `0..384`, as
/// if it were White.
///
/// ```
/// use cutoff_board::{Color, PieceType, Square};
/// use cutoff_nnue::feature_index;
/// // A white pawn on e2, seen by White: own pawn, square 12.
/// assert_eq!(feature_index(Color::White, Color::White, PieceType::Pawn, Square::E2), 12);
/// // The same pawn seen by Black: an enemy pawn on (e2 mirrored =) e7, square 52.
/// assert_eq!(feature_index(Color::Black, Color::White, PieceType::Pawn, Square::E2), 6 * 64 + 52);
/// // The black king on e8 seen by Black is "own king on e1".
/// assert_eq!(feature_index(Color::Black, Color::Black, PieceType::King, Square::E8), 5 * 64 + 4);
/// ```
#[inline(always)]
pub const fn feature_index(perspective: Color, piece_color: Color, piece: PieceType, sq: Square) -> usize {
    let theirs = (piece_color as usize) ^ (perspective as usize);
    let rel = (sq as usize) ^ (56 * perspective as usize);
    (theirs * 6 + piece as usize) * 64 + rel
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_board::Piece;

    #[test]
    fn feature_indices_cover_each_perspective_once() {
        for perspective in Color::ALL {
            let mut seen = [false; INPUTS];
            for piece in Piece::ALL {
                for sq in Square::ALL {
                    let i = feature_index(perspective, piece.color(), piece.kind(), sq);
                    assert!(!seen[i], "{perspective} {piece} {sq}");
                    seen[i] = true;
                    // The formula of the documentation, written out with the board's own helpers.
                    let own = usize::from(piece.color() != perspective);
                    assert_eq!(i, (own * 6 + piece.kind().index()) * 64 + sq.relative_to(perspective).index());
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn output_buckets_split_the_piece_counts_evenly() {
        for buckets in 1..=MAX_OUTPUT_BUCKETS {
            let mut sizes = [0; MAX_OUTPUT_BUCKETS];
            for pieces in 2..=32 {
                sizes[output_bucket(pieces, buckets)] += 1;
                assert!(
                    output_bucket(pieces, buckets) >= output_bucket(pieces - 1, buckets),
                    "more pieces, lower bucket"
                );
            }
            assert_eq!(output_bucket(2, buckets), 0);
            assert_eq!(output_bucket(32, buckets), buckets - 1);
            let used = &sizes[..buckets];
            let (min, max) = (used.iter().min().unwrap(), used.iter().max().unwrap());
            assert!(max - min <= (32 / buckets).div_ceil(2) + 1, "{buckets} buckets: {used:?}");
            assert!(sizes[buckets..].iter().all(|&s| s == 0));
        }
        // Out-of-range piece counts stay in range.
        assert_eq!(output_bucket(0, 8), 0);
        assert_eq!(output_bucket(40, 8), 7);
    }

    #[test]
    fn perspectives_mirror_each_other() {
        for piece in Piece::ALL {
            for sq in Square::ALL {
                assert_eq!(
                    feature_index(Color::White, piece.color(), piece.kind(), sq),
                    feature_index(Color::Black, !piece.color(), piece.kind(), sq.flip_rank())
                );
            }
        }
    }
}
