//! The network file, version 2 (little-endian throughout):
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `CUTOFFNN` |
//! | 4 | `u32` version = 2 |
//! | 4 | `u32` hidden size N |
//! | 4 | `u32` output buckets B (1 to 8) |
//! | 4 | `u32` reserved = 0 |
//! | 2 × 768 × N | `i16` feature weights, feature-major |
//! | 2 × N | `i16` feature biases |
//! | 2 × B × 2N | `i16` output weights, bucket by bucket, in each the side to move's half first |
//! | 4 × B | `i32` output biases |
//! | 8 | `u64` FNV-1a-64 of every byte before it |
//!
//! Builds before output buckets read only B = 1 and refuse other files with
//! [`NetworkError::UnsupportedOutputBuckets`], so B did not need a new version.
//!
//! Version 1 has the same layout with B = 1 and the output weights scaled by 64 instead of
//! [`QB`](crate::QB) = 256 (the output bias by `QA × 64`); it is read by multiplying them by 4.

use alloc::vec::Vec;

use crate::network::check_hidden;
use crate::{INPUTS, MAX_OUTPUT_BUCKETS, Network, NetworkError};

const MAGIC: &[u8; 8] = b"CUTOFFNN";
const VERSION: u32 = 2;
/// Version 1 stored the output weights at 1/4 of today's scale.
const V1_OUTPUT_FACTOR: i16 = (crate::QB / 64) as i16;
const HEADER_LEN: usize = 24;
const CHECKSUM_LEN: usize = 8;

/// The length in bytes of a file (version 1 or 2) for hidden size `n` and `b` output buckets.
const fn file_len(n: usize, b: usize) -> usize {
    HEADER_LEN + 2 * (INPUTS * n + n + b * 2 * n) + 4 * b + CHECKSUM_LEN
}

/// FNV-1a, 64 bits.
fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The little-endian `u32` at `at` (which the caller has checked to be in range).
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn read_i16s(bytes: &[u8]) -> Vec<i16> {
    bytes.as_chunks::<2>().0.iter().map(|&b| i16::from_le_bytes(b)).collect()
}

/// The fields of a file's header, checked.
struct Header {
    version: u32,
    hidden: usize,
    buckets: usize,
}

impl Header {
    /// Reads and checks the header at the start of `bytes` (magic, version, hidden size,
    /// output buckets, reserved word).
    fn parse(bytes: &[u8]) -> Result<Header, NetworkError> {
        if bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
            return Err(NetworkError::BadMagic);
        }
        if bytes.len() < HEADER_LEN {
            return Err(NetworkError::WrongLength { expected: HEADER_LEN, found: bytes.len() });
        }
        let version = u32_at(bytes, 8);
        if version != VERSION && version != 1 {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let hidden = usize::try_from(u32_at(bytes, 12)).unwrap_or(usize::MAX);
        check_hidden(hidden)?;
        let buckets = u32_at(bytes, 16);
        let max = if version == 1 { 1 } else { MAX_OUTPUT_BUCKETS as u32 };
        if !(1..=max).contains(&buckets) {
            return Err(NetworkError::UnsupportedOutputBuckets(buckets));
        }
        let reserved = u32_at(bytes, 20);
        if reserved != 0 {
            return Err(NetworkError::ReservedNotZero(reserved));
        }
        Ok(Header { version, hidden, buckets: buckets as usize })
    }
}

impl Network {
    /// The number of bytes at the start of a network file that [`Network::file_len`] reads.
    pub const HEADER_LEN: usize = HEADER_LEN;

    /// The largest valid network file, in bytes: a reader can refuse anything longer without
    /// reading it.
    ///
    /// ```
    /// use cutoff_nnue::{MAX_HIDDEN, Network};
    /// assert!(Network::MAX_FILE_LEN > 2 * 768 * MAX_HIDDEN);
    /// assert!(Network::MAX_FILE_LEN < 8 << 20);
    /// ```
    pub const MAX_FILE_LEN: usize = file_len(crate::MAX_HIDDEN, MAX_OUTPUT_BUCKETS);

    /// The length of the whole file that a network file's first [`Network::HEADER_LEN`]
    /// bytes announce, after checking them: a reader learns from the header how much to
    /// read, and never reads more.
    ///
    /// # Errors
    ///
    /// [`NetworkError::BadMagic`], [`NetworkError::WrongLength`] (fewer bytes than a header),
    /// [`NetworkError::UnsupportedVersion`], [`NetworkError::BadHiddenSize`],
    /// [`NetworkError::UnsupportedOutputBuckets`] or [`NetworkError::ReservedNotZero`].
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, Network, NetworkError};
    /// let net = Network::from_parts(16, vec![2; INPUTS * 16], vec![-1; 16], vec![5; 32], vec![7]).unwrap();
    /// let bytes = net.to_bytes();
    /// assert_eq!(Network::file_len(&bytes[..Network::HEADER_LEN]), Ok(bytes.len()));
    /// assert_eq!(Network::file_len(b"not a network header, no"), Err(NetworkError::BadMagic));
    /// ```
    pub fn file_len(header: &[u8]) -> Result<usize, NetworkError> {
        let Header { hidden, buckets, .. } = Header::parse(header)?;
        Ok(file_len(hidden, buckets))
    }

    /// Reads a network file (format version 2, or version 1, whose output weights and bias are
    /// multiplied by 4 to today's [`QB`](crate::QB); see the crate documentation). The file is
    /// checked in this order: magic, header, length, checksum, then the overflow proofs of
    /// [`Network::from_parts`].
    ///
    /// # Errors
    ///
    /// [`NetworkError::BadMagic`], [`NetworkError::UnsupportedVersion`],
    /// [`NetworkError::BadHiddenSize`], [`NetworkError::UnsupportedOutputBuckets`],
    /// [`NetworkError::ReservedNotZero`], [`NetworkError::WrongLength`],
    /// [`NetworkError::ChecksumMismatch`], [`NetworkError::Version1OutOfRange`],
    /// [`NetworkError::AccumulatorCouldOverflow`] or [`NetworkError::OutputCouldOverflow`].
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, Network, NetworkError};
    /// let net = Network::from_parts(16, vec![2; INPUTS * 16], vec![-1; 16], vec![5; 32], vec![7]).unwrap();
    /// let mut bytes = net.to_bytes();
    /// assert_eq!(bytes.len(), 24 + 2 * (768 * 16 + 16 + 32) + 4 + 8);
    /// assert_eq!(Network::from_bytes(&bytes), Ok(net));
    /// bytes.pop();
    /// assert_eq!(Network::from_bytes(&bytes), Err(NetworkError::WrongLength { expected: 24_708, found: 24_707 }));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let Header { version, hidden, buckets } = Header::parse(bytes)?;
        let found = bytes.len();
        let expected = file_len(hidden, buckets);
        if found != expected {
            return Err(NetworkError::WrongLength { expected, found });
        }
        let (content, stored) = bytes.split_at(expected - CHECKSUM_LEN);
        let stored = u64::from_le_bytes([
            stored[0], stored[1], stored[2], stored[3], stored[4], stored[5], stored[6], stored[7],
        ]);
        let computed = fnv1a64(content);
        if stored != computed {
            return Err(NetworkError::ChecksumMismatch { stored, computed });
        }

        let body = &content[HEADER_LEN..];
        let (feature_weights, body) = body.split_at(2 * INPUTS * hidden);
        let (feature_bias, body) = body.split_at(2 * hidden);
        let (output_weights, output_bias) = body.split_at(buckets * 4 * hidden);
        let mut output_weights = read_i16s(output_weights);
        let mut output_bias: Vec<i32> = output_bias.as_chunks::<4>().0.iter().map(|&b| i32::from_le_bytes(b)).collect();
        if version == 1 {
            for w in &mut output_weights {
                *w = w.checked_mul(V1_OUTPUT_FACTOR).ok_or(NetworkError::Version1OutOfRange)?;
            }
            for b in &mut output_bias {
                *b = b.checked_mul(i32::from(V1_OUTPUT_FACTOR)).ok_or(NetworkError::Version1OutOfRange)?;
            }
        }
        Network::from_parts(hidden, read_i16s(feature_weights), read_i16s(feature_bias), output_weights, output_bias)
    }

    /// The network file (format version 2) of this network; [`Network::from_bytes`] reads it
    /// back.
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, Network};
    /// let net = Network::from_parts(32, vec![0; INPUTS * 32], vec![0; 32], vec![0; 8 * 64], vec![0; 8]).unwrap();
    /// let bytes = net.to_bytes();
    /// assert_eq!(&bytes[..8], b"CUTOFFNN");
    /// assert_eq!(bytes[8..24], [2, 0, 0, 0, 32, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]); // version, N, buckets, reserved
    /// assert_eq!(Network::from_bytes(&bytes), Ok(net));
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let (n, b) = (self.hidden(), self.output_buckets());
        let mut bytes = Vec::with_capacity(file_len(n, b));
        bytes.extend_from_slice(MAGIC);
        let header = [VERSION, n as u32, b as u32, 0];
        bytes.extend(header.iter().flat_map(|w| w.to_le_bytes()));
        for part in [self.feature_weights(), self.feature_bias(), self.output_weights()] {
            bytes.extend(part.iter().flat_map(|w| w.to_le_bytes()));
        }
        bytes.extend(self.output_bias().iter().flat_map(|w| w.to_le_bytes()));
        let checksum = fnv1a64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        debug_assert_eq!(bytes.len(), file_len(n, b));
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        // From the FNV reference test suite (draft-eastlake-fnv).
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn file_length_of_the_largest_network() {
        assert_eq!(file_len(1024, 1), 24 + 1_572_864 + 2048 + 4096 + 4 + 8);
        assert_eq!(file_len(1024, 8), 24 + 1_572_864 + 2048 + 8 * 4096 + 8 * 4 + 8);
    }
}
