//! The network file, version 3 (little-endian throughout):
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `CUTOFFNN` |
//! | 4 | `u32` version = 3 |
//! | 4 | `u32` hidden size N |
//! | 4 | `u32` output buckets B (1 to 8) |
//! | 2 | `u16` king buckets K (1 to 32) |
//! | 2 | `u16` layout flags: bit 0 = mirroring, bits 1-7 = 0, bits 8-15 = the input set ([`InputSet::ID`](crate::InputSet::ID); 0 = [`KingBuckets`]) |
//! | 32 | `u8` king bucket map: the bucket of each half-board king square (a1, b1, c1, d1, a2, …, d8) |
//! | 2 × K × 768 × N | `i16` feature weights, feature-major, bucket 0's 768 rows first |
//! | 2 × N | `i16` feature biases |
//! | 2 × B × 2N | `i16` output weights, bucket by bucket, in each the side to move's half first |
//! | 4 × B | `i32` output biases |
//! | 8 | `u64` FNV-1a-64 of every byte before it |
//!
//! Version 2 has no bucket map, K = 1 without mirroring, and a `u32` reserved = 0 in place of
//! K and the flags; [`Network::to_bytes`] still writes it for such networks
//! ([`KingBuckets::NONE`]), so that they stay readable by builds before king buckets.
//!
//! Builds before output buckets read only B = 1 and refuse other files with
//! [`NetworkError::UnsupportedOutputBuckets`], so B did not need a new version.
//!
//! Version 1 has the layout of version 2 with B = 1 and the output weights scaled by 64 instead
//! of [`QB`](crate::QB) = 256 (the output bias by `QA × 64`); it is read by multiplying them by 4.

use alloc::vec::Vec;

use crate::inputs::check_set;
use crate::network::check_hidden;
use crate::{INPUTS, InputSet, Inputs, KingBuckets, MAX_KING_BUCKETS, MAX_OUTPUT_BUCKETS, Network, NetworkError};

const MAGIC: &[u8; 8] = b"CUTOFFNN";
/// The version of files with king buckets or mirroring.
const VERSION: u32 = 3;
/// The version of files without ([`KingBuckets::NONE`]).
const VERSION_PLAIN: u32 = 2;
/// Version 1 stored the output weights at 1/4 of today's scale.
const V1_OUTPUT_FACTOR: i16 = (crate::QB / 64) as i16;
const HEADER_LEN: usize = 24;
/// Version 3's king bucket map, right after the header.
const MAP_LEN: usize = 32;
const CHECKSUM_LEN: usize = 8;
/// Version 3's layout flag: mirroring.
const FLAG_MIRROR: u16 = 1;

/// The length in bytes of a file of `version` for hidden size `n`, `b` output buckets and `k`
/// king buckets (1 before version 3).
const fn file_len(version: u32, n: usize, b: usize, k: usize) -> usize {
    let map = if version >= VERSION { MAP_LEN } else { 0 };
    HEADER_LEN + map + 2 * (k * INPUTS * n + n + b * 2 * n) + 4 * b + CHECKSUM_LEN
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

/// The little-endian `u16` at `at` (which the caller has checked to be in range).
fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn read_i16s(bytes: &[u8]) -> Vec<i16> {
    bytes.as_chunks::<2>().0.iter().map(|&b| i16::from_le_bytes(b)).collect()
}

/// The fields of a file's header, checked.
struct Header {
    version: u32,
    hidden: usize,
    buckets: usize,
    /// King buckets (1 before version 3).
    king_buckets: usize,
    /// Mirroring (never before version 3).
    mirror: bool,
}

impl Header {
    /// The length of the whole file.
    fn file_len(&self) -> usize {
        file_len(self.version, self.hidden, self.buckets, self.king_buckets)
    }

    /// Reads and checks the header at the start of `bytes` (magic, version, hidden size,
    /// output buckets, and the reserved word or version 3's king buckets and flags).
    fn parse(bytes: &[u8]) -> Result<Header, NetworkError> {
        if bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
            return Err(NetworkError::BadMagic);
        }
        if bytes.len() < HEADER_LEN {
            return Err(NetworkError::WrongLength { expected: HEADER_LEN, found: bytes.len() });
        }
        let version = u32_at(bytes, 8);
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let hidden = usize::try_from(u32_at(bytes, 12)).unwrap_or(usize::MAX);
        check_hidden(hidden)?;
        let buckets = u32_at(bytes, 16);
        let max = if version == 1 { 1 } else { MAX_OUTPUT_BUCKETS as u32 };
        if !(1..=max).contains(&buckets) {
            return Err(NetworkError::UnsupportedOutputBuckets(buckets));
        }
        if version < VERSION {
            let reserved = u32_at(bytes, 20);
            if reserved != 0 {
                return Err(NetworkError::ReservedNotZero(reserved));
            }
            return Ok(Header { version, hidden, buckets: buckets as usize, king_buckets: 1, mirror: false });
        }
        let king_buckets = u16_at(bytes, 20);
        if !(1..=MAX_KING_BUCKETS).contains(&usize::from(king_buckets)) {
            return Err(NetworkError::UnsupportedKingBuckets(u32::from(king_buckets)));
        }
        let flags = u16_at(bytes, 22);
        check_set((flags >> 8) as u8)?;
        if flags & 0xff & !FLAG_MIRROR != 0 {
            return Err(NetworkError::UnknownLayoutFlags(flags));
        }
        Ok(Header {
            version,
            hidden,
            buckets: buckets as usize,
            king_buckets: usize::from(king_buckets),
            mirror: flags & FLAG_MIRROR != 0,
        })
    }
}

impl Network {
    /// The number of bytes at the start of a network file that [`Network::file_len`] reads.
    pub const HEADER_LEN: usize = HEADER_LEN;

    /// The largest valid network file, in bytes: a reader can refuse anything longer without
    /// reading it. That of [`MAX_KING_BUCKETS`] (32) king buckets at N =
    /// [`MAX_HIDDEN`](crate::MAX_HIDDEN) (1024) and 8 output buckets, about 48 MiB, almost all
    /// of it the `32 × 768 × 1024` feature weights. Without king buckets a file stays under
    /// 1.6 MiB; with 16 buckets at N = 1024, 24 MiB.
    ///
    /// ```
    /// use cutoff_nnue::{MAX_HIDDEN, MAX_KING_BUCKETS, Network};
    /// assert!(Network::MAX_FILE_LEN > 2 * MAX_KING_BUCKETS * 768 * MAX_HIDDEN);
    /// assert!(Network::MAX_FILE_LEN < 49 << 20);
    /// ```
    pub const MAX_FILE_LEN: usize = file_len(VERSION, crate::MAX_HIDDEN, MAX_OUTPUT_BUCKETS, MAX_KING_BUCKETS);

    /// The length of the whole file that a network file's first [`Network::HEADER_LEN`]
    /// bytes announce, after checking them: a reader learns from the header how much to
    /// read, and never reads more.
    ///
    /// # Errors
    ///
    /// [`NetworkError::BadMagic`], [`NetworkError::WrongLength`] (fewer bytes than a header),
    /// [`NetworkError::UnsupportedVersion`], [`NetworkError::BadHiddenSize`],
    /// [`NetworkError::UnsupportedOutputBuckets`], [`NetworkError::ReservedNotZero`]
    /// (versions 1 and 2), [`NetworkError::UnsupportedKingBuckets`] or
    /// [`NetworkError::UnsupportedInputSet`] or [`NetworkError::UnknownLayoutFlags`] (version 3).
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, Network, NetworkError};
    /// let net = Network::from_parts(16, vec![2; INPUTS * 16], vec![-1; 16], vec![5; 32], vec![7]).unwrap();
    /// let bytes = net.to_bytes();
    /// assert_eq!(Network::file_len(&bytes[..Network::HEADER_LEN]), Ok(bytes.len()));
    /// assert_eq!(Network::file_len(b"not a network header, no"), Err(NetworkError::BadMagic));
    /// ```
    pub fn file_len(header: &[u8]) -> Result<usize, NetworkError> {
        Ok(Header::parse(header)?.file_len())
    }

    /// Reads a network file (format version 3 or 2, or version 1, whose output weights and bias
    /// are multiplied by 4 to today's [`QB`](crate::QB); see the crate documentation). The file
    /// is checked in this order: magic, header, length, checksum, the king bucket map (version
    /// 3), then the overflow proofs of [`Network::from_parts`].
    ///
    /// # Errors
    ///
    /// [`NetworkError::BadMagic`], [`NetworkError::UnsupportedVersion`],
    /// [`NetworkError::BadHiddenSize`], [`NetworkError::UnsupportedOutputBuckets`],
    /// [`NetworkError::ReservedNotZero`], [`NetworkError::UnsupportedKingBuckets`],
    /// [`NetworkError::UnsupportedInputSet`], [`NetworkError::UnknownLayoutFlags`],
    /// [`NetworkError::WrongLength`],
    /// [`NetworkError::ChecksumMismatch`], [`NetworkError::KingBucketOutOfRange`],
    /// [`NetworkError::KingBucketUnused`], [`NetworkError::KingBucketCountMismatch`],
    /// [`NetworkError::Version1OutOfRange`], [`NetworkError::AccumulatorCouldOverflow`] or
    /// [`NetworkError::OutputCouldOverflow`].
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
        let header = Header::parse(bytes)?;
        let Header { version, hidden, buckets, .. } = header;
        let found = bytes.len();
        let expected = header.file_len();
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

        let mut body = &content[HEADER_LEN..];
        let mut king_buckets = KingBuckets::NONE;
        if version >= VERSION {
            let (map, rest) = body.split_at(MAP_LEN);
            let mut entries = [0u8; MAP_LEN];
            entries.copy_from_slice(map);
            king_buckets = KingBuckets::new(header.mirror, entries)?;
            if king_buckets.count() != header.king_buckets {
                return Err(NetworkError::KingBucketCountMismatch {
                    header: header.king_buckets,
                    map: king_buckets.count(),
                });
            }
            body = rest;
        }
        let (feature_weights, body) = body.split_at(2 * king_buckets.inputs() * hidden);
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
        Network::from_bucketed_parts(
            king_buckets,
            hidden,
            read_i16s(feature_weights),
            read_i16s(feature_bias),
            output_weights,
            output_bias,
        )
    }

    /// The network file of this network; [`Network::from_bytes`] reads it back. Format
    /// version 3 for a network with king buckets or mirroring, version 2 (which builds before
    /// king buckets read too) for one without ([`KingBuckets::NONE`]).
    ///
    /// ```
    /// use cutoff_nnue::{INPUTS, KingBuckets, Network};
    /// let net = Network::from_parts(32, vec![0; INPUTS * 32], vec![0; 32], vec![0; 8 * 64], vec![0; 8]).unwrap();
    /// let bytes = net.to_bytes();
    /// assert_eq!(&bytes[..8], b"CUTOFFNN");
    /// assert_eq!(bytes[8..24], [2, 0, 0, 0, 32, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]); // version, N, buckets, reserved
    /// assert_eq!(Network::from_bytes(&bytes), Ok(net));
    ///
    /// // Two king buckets (the first rank, the rest), mirrored.
    /// let mut map = [1; 32];
    /// map[..4].fill(0);
    /// let layout = KingBuckets::new(true, map).unwrap();
    /// let net = Network::from_bucketed_parts(layout, 16, vec![0; 2 * INPUTS * 16], vec![0; 16], vec![0; 32], vec![0]);
    /// let bytes = net.as_ref().unwrap().to_bytes();
    /// assert_eq!(bytes[8..24], [3, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 0]); // version, N, B, K, flags
    /// assert_eq!(bytes[24..56], map);
    /// assert_eq!(bytes.len(), 24 + 32 + 2 * (2 * 768 * 16 + 16 + 32) + 4 + 8);
    /// assert_eq!(Network::from_bytes(&bytes), net);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let (n, b) = (self.hidden(), self.output_buckets());
        let layout = *self.king_buckets();
        let version = if layout == KingBuckets::NONE { VERSION_PLAIN } else { VERSION };
        let len = file_len(version, n, b, layout.count());
        let mut bytes = Vec::with_capacity(len);
        bytes.extend_from_slice(MAGIC);
        let header = [version, n as u32, b as u32];
        bytes.extend(header.iter().flat_map(|w| w.to_le_bytes()));
        if version == VERSION_PLAIN {
            bytes.extend(0u32.to_le_bytes());
        } else {
            bytes.extend((layout.count() as u16).to_le_bytes());
            let flags = u16::from(Inputs::ID) << 8 | if layout.mirrored() { FLAG_MIRROR } else { 0 };
            bytes.extend(flags.to_le_bytes());
            bytes.extend_from_slice(layout.map());
        }
        for part in [self.feature_weights(), self.feature_bias(), self.output_weights()] {
            bytes.extend(part.iter().flat_map(|w| w.to_le_bytes()));
        }
        bytes.extend(self.output_bias().iter().flat_map(|w| w.to_le_bytes()));
        let checksum = fnv1a64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        debug_assert_eq!(bytes.len(), len);
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
        assert_eq!(file_len(2, 1024, 1, 1), 24 + 1_572_864 + 2048 + 4096 + 4 + 8);
        assert_eq!(file_len(2, 1024, 8, 1), 24 + 1_572_864 + 2048 + 8 * 4096 + 8 * 4 + 8);
        assert_eq!(file_len(3, 1024, 8, 32), 24 + 32 + 32 * 1_572_864 + 2048 + 8 * 4096 + 8 * 4 + 8);
        assert_eq!(Network::MAX_FILE_LEN, file_len(3, 1024, 8, 32));
    }
}
