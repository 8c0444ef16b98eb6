//! Why a network could not be read or built.

use core::fmt;

use crate::{HIDDEN_STEP, MAX_HIDDEN, MAX_KING_BUCKETS, MAX_OUTPUT_BUCKETS, MIN_HIDDEN};

/// Why [`Network::from_bytes`](crate::Network::from_bytes) or
/// [`Network::from_parts`](crate::Network::from_parts) refused a network. Its `Display` is a
/// one-line sentence that an engine can print to a GUI as `info string`.
///
/// ```
/// use cutoff_nnue::{Network, NetworkError};
/// let err = Network::from_bytes(b"not a network").unwrap_err();
/// assert_eq!(err, NetworkError::BadMagic);
/// assert_eq!(err.to_string(), "not a Cutoff network file (it does not start with CUTOFFNN)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetworkError {
    /// The file does not start with the 8 bytes `CUTOFFNN`.
    BadMagic,
    /// The file's format version is not 1, 2 or 3 (the ones this build reads).
    UnsupportedVersion(u32),
    /// The hidden-layer size is not a multiple of 16 from 16 to 1024.
    BadHiddenSize(usize),
    /// The network has a number of output buckets other than 1 to 8 (version 1 files: other
    /// than 1).
    UnsupportedOutputBuckets(u32),
    /// The header's reserved field is not 0.
    ReservedNotZero(u32),
    /// The file does not have the length its header implies (or is shorter than a header).
    WrongLength {
        /// The length in bytes the header implies (the header's own length, 24, if the file
        /// is too short to hold one).
        expected: usize,
        /// The length in bytes of the file.
        found: usize,
    },
    /// The FNV-1a-64 checksum at the end of the file is not that of the bytes before it: the
    /// file is damaged.
    ChecksumMismatch {
        /// The checksum stored in the file.
        stored: u64,
        /// The checksum of the file's bytes.
        computed: u64,
    },
    /// A part given to [`Network::from_parts`](crate::Network::from_parts) has the wrong
    /// number of elements for the hidden size.
    WrongPartLength {
        /// Which part.
        part: NetworkPart,
        /// The number of elements it must have.
        expected: usize,
        /// The number of elements it has.
        found: usize,
    },
    /// A hidden neuron's accumulator could leave the `i16` range: for this neuron, `|bias|`
    /// plus the 32 largest `|weight|` over the 768 features exceeds 32767.
    AccumulatorCouldOverflow {
        /// The first such neuron (0-based).
        neuron: usize,
    },
    /// The output sum could leave the `i32` range: for the output weights `w[k]` of a bucket
    /// with `k % 16 == lane`, `QA² × Σ|w[k]|` exceeds `i32::MAX` (any network whose output
    /// weights are all within ±258 passes).
    OutputCouldOverflow {
        /// The first bucket with such a lane (0-based).
        bucket: usize,
        /// Its first such lane (`0..16`).
        lane: usize,
    },
    /// A version 1 file's output weight or bias does not fit its type once brought to the
    /// output scale of version 2 (multiplied by 4; see [`QB`](crate::QB)).
    Version1OutOfRange,
    /// A version 3 header's number of king buckets is not 1 to
    /// [`MAX_KING_BUCKETS`](crate::MAX_KING_BUCKETS).
    UnsupportedKingBuckets(u32),
    /// A version 3 header's layout flags have a bit set among bits 1 to 7 (bit 0 is
    /// mirroring, bits 8 to 15 name the input set).
    UnknownLayoutFlags(u16),
    /// The file's input set (the high byte of its layout flags) is not this build's
    /// ([`Inputs`](crate::Inputs), see [`InputSet::ID`](crate::InputSet::ID)).
    UnsupportedInputSet(u8),
    /// An entry of a king bucket map is [`MAX_KING_BUCKETS`](crate::MAX_KING_BUCKETS) or more.
    KingBucketOutOfRange {
        /// The half-board square (0 to 31) of the entry.
        square: usize,
        /// Its bucket.
        bucket: u8,
    },
    /// A king bucket map leaves a bucket unused below its largest: buckets must be numbered
    /// from 0 with no gap.
    KingBucketUnused {
        /// The first unused bucket.
        bucket: usize,
    },
    /// A version 3 file's bucket map has another number of buckets than its header.
    KingBucketCountMismatch {
        /// The number of king buckets in the header.
        header: usize,
        /// The number of buckets the map uses (its largest entry plus one).
        map: usize,
    },
}

/// The three arrays of a network, named in [`NetworkError::WrongPartLength`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetworkPart {
    /// The K × 768 × N feature weights.
    FeatureWeights,
    /// The N feature biases.
    FeatureBias,
    /// The B × 2N output weights.
    OutputWeights,
}

impl fmt::Display for NetworkPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NetworkPart::FeatureWeights => "feature weights",
            NetworkPart::FeatureBias => "feature biases",
            NetworkPart::OutputWeights => "output weights",
        })
    }
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NetworkError::BadMagic => f.write_str("not a Cutoff network file (it does not start with CUTOFFNN)"),
            NetworkError::UnsupportedVersion(v) => {
                write!(f, "network file format version {v} is not supported (this engine reads versions 1 to 3)")
            }
            NetworkError::BadHiddenSize(n) => write!(
                f,
                "bad network hidden size {n} (it must be a multiple of {HIDDEN_STEP} from {MIN_HIDDEN} to {MAX_HIDDEN})"
            ),
            NetworkError::UnsupportedOutputBuckets(b) => {
                write!(f, "the network has {b} output buckets (this engine supports 1 to {MAX_OUTPUT_BUCKETS})")
            }
            NetworkError::ReservedNotZero(r) => {
                write!(f, "the network header's reserved field is {r}, not 0 (a newer format?)")
            }
            NetworkError::WrongLength { expected, found } => {
                write!(f, "the network file is {found} bytes long, expected {expected} (truncated or damaged?)")
            }
            NetworkError::ChecksumMismatch { stored, computed } => write!(
                f,
                "the network file is damaged: checksum {computed:#018x} does not match the stored {stored:#018x}"
            ),
            NetworkError::WrongPartLength { part, expected, found } => {
                write!(f, "the network's {part} have {found} elements, expected {expected}")
            }
            NetworkError::AccumulatorCouldOverflow { neuron } => write!(
                f,
                "the network's feature weights are too large: hidden neuron {neuron} could overflow its 16-bit accumulator"
            ),
            NetworkError::OutputCouldOverflow { bucket, lane } => write!(
                f,
                "the network's output weights are too large: the output sum could overflow 32 bits (bucket {bucket}, lane {lane})"
            ),
            NetworkError::Version1OutOfRange => f.write_str(
                "the version 1 network's output weights are too large for the output scale of version 2 (64 to 256)",
            ),
            NetworkError::UnsupportedKingBuckets(k) => {
                write!(f, "the network has {k} king buckets (this engine supports 1 to {MAX_KING_BUCKETS})")
            }
            NetworkError::UnknownLayoutFlags(flags) => {
                write!(f, "the network header's layout flags {flags:#06x} have unknown bits (a newer format?)")
            }
            NetworkError::UnsupportedInputSet(id) => write!(
                f,
                "the network's input set is number {id}, and this build reads only set {} (a network for another build?)",
                <crate::Inputs as crate::InputSet>::ID
            ),
            NetworkError::KingBucketOutOfRange { square, bucket } => write!(
                f,
                "the network's king bucket map gives square {square} bucket {bucket} (at most {} allowed)",
                MAX_KING_BUCKETS - 1
            ),
            NetworkError::KingBucketUnused { bucket } => {
                write!(f, "the network's king bucket map never uses bucket {bucket} (buckets must be 0, 1, 2, ...)")
            }
            NetworkError::KingBucketCountMismatch { header, map } => {
                write!(f, "the network header says {header} king buckets, but its bucket map has {map}")
            }
        }
    }
}

impl core::error::Error for NetworkError {}
