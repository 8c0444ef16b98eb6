//! The network file: round trips, the byte layout a trainer writes, and one corrupted input
//! for every error.

mod common;

use cutoff_board::{Board, Color};
use cutoff_nnue::{INPUTS, KingBuckets, Network, NetworkError, NetworkPart, feature_index};

/// FNV-1a-64, written again here from its definition, to build files by hand.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x100_0000_01b3);
    }
    hash
}

/// A file written field by field from the format's description, with a correct checksum.
fn handmade_file(
    header: [u32; 4],
    feature_weights: &[i16],
    feature_bias: &[i16],
    output_weights: &[i16],
    output_bias: &[i32],
) -> Vec<u8> {
    let mut bytes = b"CUTOFFNN".to_vec();
    for field in header {
        bytes.extend(field.to_le_bytes());
    }
    for part in [feature_weights, feature_bias, output_weights] {
        for &w in part {
            bytes.extend(w.to_le_bytes());
        }
    }
    for &b in output_bias {
        bytes.extend(b.to_le_bytes());
    }
    let checksum = fnv1a64(&bytes);
    bytes.extend(checksum.to_le_bytes());
    bytes
}

/// Replaces the checksum at the end of `bytes` with the right one for the rest.
fn reseal(bytes: &mut [u8]) {
    let end = bytes.len() - 8;
    let checksum = fnv1a64(&bytes[..end]);
    bytes[end..].copy_from_slice(&checksum.to_le_bytes());
}

fn set_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

#[test]
fn round_trips() {
    for (seed, hidden) in [(1, 16), (2, 32), (3, 48), (4, 256), (5, 1024)] {
        let network = common::realistic_network(seed, hidden);
        let bytes = network.to_bytes();
        let b = network.output_buckets();
        assert_eq!(bytes.len(), 24 + 2 * (INPUTS * hidden + hidden + b * 2 * hidden) + 4 * b + 8);
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(read, network);
        assert_eq!(read.to_bytes(), bytes);
        assert_eq!(read.hidden(), hidden);
        assert_eq!(read.output_buckets(), b);
    }
}

#[test]
fn the_layout_is_the_documented_one() {
    // Distinct values everywhere, so that any misplaced field shows. One output bucket, then
    // three: B blocks of 2N output weights, then B biases.
    let n = 16;
    let feature_weights: Vec<i16> = (0..INPUTS * n).map(|i| (i % 61) as i16 - 30).collect();
    let feature_bias: Vec<i16> = (0..n).map(|i| 100 + i as i16).collect();
    for output_bias in [vec![-123_456_789], vec![-7, 1_000_000, 42]] {
        let buckets = output_bias.len();
        let output_weights: Vec<i16> = (0..buckets * 2 * n).map(|i| -50 + i as i16).collect();
        let header = [2, 16, buckets as u32, 0];
        let handmade = handmade_file(header, &feature_weights, &feature_bias, &output_weights, &output_bias);
        let parts = (feature_weights.clone(), feature_bias.clone(), output_weights.clone(), output_bias.clone());
        let network = Network::from_parts(n, parts.0, parts.1, parts.2, parts.3).unwrap();
        assert_eq!(network.to_bytes(), handmade);
        let read = Network::from_bytes(&handmade).unwrap();
        assert_eq!(read.feature_weights(), feature_weights.as_slice());
        assert_eq!(read.feature_bias(), feature_bias.as_slice());
        assert_eq!(read.output_buckets(), buckets);
        assert_eq!(read.output_weights(), output_weights.as_slice());
        assert_eq!(read.output_bias(), output_bias.as_slice());
        // Feature-major: weight (feature 1, neuron 0) follows the 16 weights of feature 0.
        let at = 24 + 2 * 16;
        assert_eq!(i16::from_le_bytes([handmade[at], handmade[at + 1]]), feature_weights[16]);
    }
}

#[test]
fn version_1_files_are_read_at_the_output_scale_of_version_2() {
    // Version 1 stored the output weights at 1/4 of today's scale (QB 64, not 256).
    let n = 16;
    let feature_weights: Vec<i16> = (0..INPUTS * n).map(|i| (i % 61) as i16 - 30).collect();
    let feature_bias: Vec<i16> = (0..n).map(|i| 100 + i as i16).collect();
    let v1_output: Vec<i16> = (0..2 * n).map(|i| -50 + 7 * i as i16).collect();
    let v1_bias = -1_234_567;
    let v1 = handmade_file([1, 16, 1, 0], &feature_weights, &feature_bias, &v1_output, &[v1_bias]);
    let read = Network::from_bytes(&v1).unwrap();
    let scaled: Vec<i16> = v1_output.iter().map(|&w| 4 * w).collect();
    let expected =
        Network::from_parts(n, feature_weights.clone(), feature_bias.clone(), scaled, vec![4 * v1_bias]).unwrap();
    assert_eq!(read, expected);
    // Written back, it is a version 2 file.
    assert_eq!(read.to_bytes()[8], 2);
    // The same evaluations as the version 1 formula, up to the last division's truncation.
    let v1_evaluate = |board: &Board| -> i64 {
        let accumulator = |perspective: Color| -> Vec<i64> {
            let mut acc: Vec<i64> = feature_bias.iter().map(|&b| i64::from(b)).collect();
            for sq in board.occupied() {
                let piece = board.piece_on(sq).unwrap();
                let feature = feature_index(perspective, piece.color(), piece.kind(), sq);
                for (a, &w) in acc.iter_mut().zip(&feature_weights[feature * n..(feature + 1) * n]) {
                    *a += i64::from(w);
                }
            }
            acc
        };
        let stm = board.side_to_move();
        let (ours, theirs) = (accumulator(stm), accumulator(!stm));
        let screlu = |x: i64| x.clamp(0, 255) * x.clamp(0, 255);
        let sum: i64 = (0..n)
            .map(|i| screlu(ours[i]) * i64::from(v1_output[i]) + screlu(theirs[i]) * i64::from(v1_output[n + i]))
            .sum();
        (sum / 255 + i64::from(v1_bias)) * 200 / (255 * 64)
    };
    for board in common::all_starts() {
        let (new, old) = (i64::from(read.evaluate(&board)), v1_evaluate(&board));
        assert!((new - old).abs() <= 1, "{board}: {new} against {old}");
    }

    // Output weights or a bias that do not fit once multiplied by 4.
    let mut too_big = v1_output.clone();
    too_big[3] = 8192;
    let file = handmade_file([1, 16, 1, 0], &feature_weights, &feature_bias, &too_big, &[0]);
    assert_eq!(Network::from_bytes(&file), Err(NetworkError::Version1OutOfRange));
    let file = handmade_file([1, 16, 1, 0], &feature_weights, &feature_bias, &v1_output, &[i32::MIN / 2]);
    assert_eq!(Network::from_bytes(&file), Err(NetworkError::Version1OutOfRange));
    // Version 1 had no output buckets.
    let two = [v1_output.clone(), v1_output.clone()].concat();
    let file = handmade_file([1, 16, 2, 0], &feature_weights, &feature_bias, &two, &[v1_bias, v1_bias]);
    assert_eq!(Network::from_bytes(&file), Err(NetworkError::UnsupportedOutputBuckets(2)));
}

#[test]
fn each_corruption_gets_its_error() {
    let network = common::realistic_network(6, 32);
    assert_eq!(network.output_buckets(), 1); // the offsets below assume one bucket
    let good = network.to_bytes();
    let len = good.len();
    let read = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();

    // Magic.
    let mut bad = good.clone();
    bad[3] ^= 0x20;
    assert_eq!(read(&bad), NetworkError::BadMagic);
    assert_eq!(read(&[]), NetworkError::BadMagic);
    assert_eq!(read(b"CUTOFF"), NetworkError::BadMagic);

    // Header fields (checked before the checksum, so they are named even in a stale file).
    for version in [0, 4, u32::MAX] {
        let mut bad = good.clone();
        set_u32(&mut bad, 8, version);
        assert_eq!(read(&bad), NetworkError::UnsupportedVersion(version));
    }
    for hidden in [17, 0, 8, 1040, 2048, u32::MAX] {
        let mut bad = good.clone();
        set_u32(&mut bad, 12, hidden);
        assert_eq!(read(&bad), NetworkError::BadHiddenSize(hidden as usize));
    }
    for buckets in [0, 9, u32::MAX] {
        let mut bad = good.clone();
        set_u32(&mut bad, 16, buckets);
        assert_eq!(read(&bad), NetworkError::UnsupportedOutputBuckets(buckets));
    }
    let mut two = good.clone();
    set_u32(&mut two, 16, 2); // a supported count, but the file holds one bucket
    assert_eq!(read(&two), NetworkError::WrongLength { expected: len + 2 * 64 + 4, found: len });
    let mut bad = good.clone();
    set_u32(&mut bad, 20, 1);
    assert_eq!(read(&bad), NetworkError::ReservedNotZero(1));

    // Length.
    assert_eq!(read(&good[..20]), NetworkError::WrongLength { expected: 24, found: 20 });
    assert_eq!(read(&good[..24]), NetworkError::WrongLength { expected: len, found: 24 });
    assert_eq!(read(&good[..len - 1]), NetworkError::WrongLength { expected: len, found: len - 1 });
    let mut long = good.clone();
    long.push(0);
    assert_eq!(read(&long), NetworkError::WrongLength { expected: len, found: len + 1 });
    // A right-sized file for another N: the header decides.
    let mut other = good.clone();
    set_u32(&mut other, 12, 48);
    assert!(matches!(read(&other), NetworkError::WrongLength { found, .. } if found == len));

    // Checksum: one flipped bit in each part, and in the checksum itself.
    for at in [30, 24 + 2 * INPUTS * 32 + 5, len - 12 - 64, len - 10, len - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x01;
        assert!(
            matches!(read(&bad), NetworkError::ChecksumMismatch { stored, computed } if stored != computed),
            "byte {at}"
        );
    }

    // Overflow: well-formed files (right checksum) whose weights could overflow.
    let n = 16;
    let (fw, fb, ow) = (vec![0i16; INPUTS * n], vec![0i16; n], vec![0i16; 2 * n]);
    let mut big_output = ow.clone();
    big_output[5] = 20_000;
    big_output[21] = 20_000; // the same lane as 5: together over 33025
    let file = handmade_file([2, 16, 1, 0], &fw, &fb, &big_output, &[0]);
    assert_eq!(read(&file), NetworkError::OutputCouldOverflow { bucket: 0, lane: 5 });
    // Each bucket's lanes are proven on their own: the same weights split over two buckets pass,
    // and in the second of two buckets they are found there.
    let mut split = [ow.clone(), ow.clone()].concat();
    split[5] = 20_000;
    split[2 * n + 21] = 20_000;
    assert!(Network::from_bytes(&handmade_file([2, 16, 2, 0], &fw, &fb, &split, &[0, 0])).is_ok());
    let two = [ow.clone(), big_output.clone()].concat();
    let file = handmade_file([2, 16, 2, 0], &fw, &fb, &two, &[0, 0]);
    assert_eq!(read(&file), NetworkError::OutputCouldOverflow { bucket: 1, lane: 5 });
    let mut big_features = fw.clone();
    for feature in 0..32 {
        big_features[feature * 20 * n + 9] = 1_100; // 32 × 1100 > 32767 for neuron 9
    }
    let file = handmade_file([2, 16, 1, 0], &big_features, &fb, &ow, &[0]);
    assert_eq!(read(&file), NetworkError::AccumulatorCouldOverflow { neuron: 9 });
    // And a file whose checksum was redone after a weight was raised.
    let mut raised = good.clone();
    let at = len - 12 - 2 * 64; // output weight 0
    raised[at..at + 2].copy_from_slice(&i16::MAX.to_le_bytes());
    raised[at + 32..at + 34].copy_from_slice(&i16::MAX.to_le_bytes()); // output weight 16, lane 0
    reseal(&mut raised);
    assert_eq!(read(&raised), NetworkError::OutputCouldOverflow { bucket: 0, lane: 0 });
}

#[test]
fn from_parts_checks_sizes() {
    let n = 32;
    let parts = || (vec![0i16; INPUTS * n], vec![0i16; n], vec![0i16; 2 * n]);
    let (fw, fb, ow) = parts();
    assert!(Network::from_parts(n, fw, fb, ow, vec![0]).is_ok());
    for hidden in [0, 8, 17, 40, 1040] {
        let (fw, fb, ow) = parts();
        assert_eq!(Network::from_parts(hidden, fw, fb, ow, vec![0]), Err(NetworkError::BadHiddenSize(hidden)));
    }
    let (mut fw, fb, ow) = parts();
    fw.pop();
    assert_eq!(
        Network::from_parts(n, fw, fb, ow, vec![0]),
        Err(NetworkError::WrongPartLength {
            part: NetworkPart::FeatureWeights,
            expected: INPUTS * n,
            found: INPUTS * n - 1
        })
    );
    let (fw, mut fb, ow) = parts();
    fb.push(0);
    assert_eq!(
        Network::from_parts(n, fw, fb, ow, vec![0]),
        Err(NetworkError::WrongPartLength { part: NetworkPart::FeatureBias, expected: n, found: n + 1 })
    );
    let (fw, fb, ow) = parts();
    assert_eq!(
        Network::from_parts(n, fw, fb, ow[..n].to_vec(), vec![0]),
        Err(NetworkError::WrongPartLength { part: NetworkPart::OutputWeights, expected: 2 * n, found: n })
    );
    // The number of output biases is the number of buckets, 1 to 8.
    for buckets in [0, 9, 16] {
        let (fw, fb, _) = parts();
        let ow = vec![0; buckets * 2 * n];
        assert_eq!(
            Network::from_parts(n, fw, fb, ow, vec![0; buckets]),
            Err(NetworkError::UnsupportedOutputBuckets(buckets as u32))
        );
    }
    let (fw, fb, ow) = parts();
    assert_eq!(
        Network::from_parts(n, fw, fb, ow, vec![0; 3]),
        Err(NetworkError::WrongPartLength { part: NetworkPart::OutputWeights, expected: 6 * n, found: 2 * n })
    );
}

#[test]
fn error_messages_are_one_line_and_say_what_is_wrong() {
    let errors = [
        (NetworkError::BadMagic, "CUTOFFNN"),
        (NetworkError::UnsupportedVersion(3), "version 3"),
        (NetworkError::Version1OutOfRange, "version 1"),
        (NetworkError::BadHiddenSize(17), "17"),
        (NetworkError::UnsupportedOutputBuckets(9), "9 output buckets"),
        (NetworkError::ReservedNotZero(7), "reserved"),
        (NetworkError::WrongLength { expected: 1000, found: 999 }, "999 bytes long, expected 1000"),
        (NetworkError::ChecksumMismatch { stored: 1, computed: 2 }, "damaged"),
        (NetworkError::WrongPartLength { part: NetworkPart::FeatureBias, expected: 16, found: 15 }, "feature biases"),
        (NetworkError::AccumulatorCouldOverflow { neuron: 3 }, "neuron 3"),
        (NetworkError::OutputCouldOverflow { bucket: 1, lane: 4 }, "bucket 1, lane 4"),
    ];
    let mut messages = std::collections::HashSet::new();
    for (error, needle) in errors {
        let message = error.to_string();
        assert!(message.contains(needle), "{message:?} lacks {needle:?}");
        assert!(!message.contains('\n') && !message.is_empty());
        assert!(messages.insert(message));
        // It is a std error, so it can be boxed and carried by `?`.
        let boxed: Box<dyn std::error::Error> = Box::new(error);
        assert!(boxed.source().is_none());
    }
}

/// A version 3 file written field by field: the header with `k` and `flags`, the map, the parts.
fn handmade_v3(
    [n, b, k, flags]: [u32; 4],
    map: &[u8; 32],
    feature_weights: &[i16],
    feature_bias: &[i16],
    output_weights: &[i16],
    output_bias: &[i32],
) -> Vec<u8> {
    let mut bytes = b"CUTOFFNN".to_vec();
    for field in [3, n, b] {
        bytes.extend(field.to_le_bytes());
    }
    bytes.extend((k as u16).to_le_bytes());
    bytes.extend((flags as u16).to_le_bytes());
    bytes.extend_from_slice(map);
    for part in [feature_weights, feature_bias, output_weights] {
        for &w in part {
            bytes.extend(w.to_le_bytes());
        }
    }
    for &b in output_bias {
        bytes.extend(b.to_le_bytes());
    }
    let checksum = fnv1a64(&bytes);
    bytes.extend(checksum.to_le_bytes());
    bytes
}

fn set_u16(bytes: &mut [u8], at: usize, value: u16) {
    bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

#[test]
fn version_3_round_trips_and_is_the_documented_layout() {
    for (seed, layout) in common::layouts().into_iter().enumerate() {
        let n = 32;
        let network = common::bucketed_network(seed as u64, n, layout, 100);
        let bytes = network.to_bytes();
        let (k, b) = (layout.count(), network.output_buckets());
        assert_eq!(bytes.len(), 24 + 32 + 2 * (k * INPUTS * n + n + b * 2 * n) + 4 * b + 8);
        assert_eq!(Network::file_len(&bytes[..Network::HEADER_LEN]), Ok(bytes.len()));
        let header = [n as u32, b as u32, k as u32, u32::from(layout.mirrored())];
        let handmade = handmade_v3(
            header,
            layout.map(),
            network.feature_weights(),
            network.feature_bias(),
            network.output_weights(),
            network.output_bias(),
        );
        assert_eq!(bytes, handmade);
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(read, network);
        assert_eq!(read.king_buckets(), &layout);
        assert_eq!(read.to_bytes(), bytes);
    }
}

#[test]
fn version_2_files_read_as_one_bucket_without_mirroring() {
    // The committed default network: read, it is the plain layout, and written back, the same bytes.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../uci/networks/default.nnue");
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes[8], 2);
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!(network.king_buckets(), &KingBuckets::NONE);
    assert_eq!(network.feature_weights().len(), INPUTS * network.hidden());
    assert_eq!(network.to_bytes(), bytes);
    // Its evaluations are those of the plain feature index (the documented version 2 formula).
    for board in common::all_starts() {
        for perspective in Color::ALL {
            let n = network.hidden();
            let mut acc: Vec<i16> = network.feature_bias().to_vec();
            for sq in board.occupied() {
                let piece = board.piece_on(sq).unwrap();
                let f = feature_index(perspective, piece.color(), piece.kind(), sq);
                for (a, &w) in acc.iter_mut().zip(&network.feature_weights()[f * n..(f + 1) * n]) {
                    *a += w;
                }
            }
            assert_eq!(network.accumulator(&board, perspective), acc);
        }
    }
    // A version 3 file of the plain layout (K = 1, no mirroring) reads as the same network.
    let v3 = handmade_v3(
        [network.hidden() as u32, network.output_buckets() as u32, 1, 0],
        &[0; 32],
        network.feature_weights(),
        network.feature_bias(),
        network.output_weights(),
        network.output_bias(),
    );
    assert_eq!(Network::from_bytes(&v3).unwrap(), network);
}

#[test]
fn each_version_3_corruption_gets_its_error() {
    let layout = common::layouts()[0]; // 8 buckets, mirrored
    let network = common::bucketed_network(3, 16, layout, 100);
    assert_eq!(network.output_buckets(), 1);
    let good = network.to_bytes();
    let len = good.len();
    let read = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    let file_len = |bytes: &[u8]| Network::file_len(&bytes[..24]).unwrap_err();

    // Header: king buckets and flags (before the length and the checksum).
    for k in [0, 33, 64, u16::MAX] {
        let mut bad = good.clone();
        set_u16(&mut bad, 20, k);
        assert_eq!(read(&bad), NetworkError::UnsupportedKingBuckets(u32::from(k)));
        assert_eq!(file_len(&bad), NetworkError::UnsupportedKingBuckets(u32::from(k)));
    }
    for flags in [2, 3, 0x80, 0xff] {
        let mut bad = good.clone();
        set_u16(&mut bad, 22, flags);
        assert_eq!(read(&bad), NetworkError::UnknownLayoutFlags(flags));
        assert_eq!(file_len(&bad), NetworkError::UnknownLayoutFlags(flags));
    }
    // The high byte names the input set: another set's file is refused as such.
    for flags in [0x0100, 0x8000, 0x8001, u16::MAX] {
        let mut bad = good.clone();
        set_u16(&mut bad, 22, flags);
        assert_eq!(read(&bad), NetworkError::UnsupportedInputSet((flags >> 8) as u8));
        assert_eq!(file_len(&bad), NetworkError::UnsupportedInputSet((flags >> 8) as u8));
    }
    // Another supported count: the header decides the length.
    let mut nine = good.clone();
    set_u16(&mut nine, 20, 9);
    assert_eq!(read(&nine), NetworkError::WrongLength { expected: len + 2 * INPUTS * 16, found: len });
    // The length, and the checksum, which covers the map.
    assert_eq!(read(&good[..len - 1]), NetworkError::WrongLength { expected: len, found: len - 1 });
    assert_eq!(read(&good[..40]), NetworkError::WrongLength { expected: len, found: 40 });
    let mut bad = good.clone();
    bad[30] ^= 1;
    assert!(matches!(read(&bad), NetworkError::ChecksumMismatch { .. }));

    // The map (resealed, so that the checksum passes).
    let mut bad = good.clone();
    bad[24 + 5] = 32;
    reseal(&mut bad);
    assert_eq!(read(&bad), NetworkError::KingBucketOutOfRange { square: 5, bucket: 32 });
    let mut bad = good.clone();
    bad[24 + 31] = 255;
    reseal(&mut bad);
    assert_eq!(read(&bad), NetworkError::KingBucketOutOfRange { square: 31, bucket: 255 });
    // Every square of bucket 3 moved to bucket 2: bucket 3 unused, below 7.
    let mut bad = good.clone();
    for sq in 0..32 {
        if bad[24 + sq] == 3 {
            bad[24 + sq] = 2;
        }
    }
    reseal(&mut bad);
    assert_eq!(read(&bad), NetworkError::KingBucketUnused { bucket: 3 });
    // A map of 4 buckets (contiguous) in a file of 8.
    let mut bad = good.clone();
    for sq in 0..32 {
        bad[24 + sq] %= 4;
    }
    reseal(&mut bad);
    assert_eq!(read(&bad), NetworkError::KingBucketCountMismatch { header: 8, map: 4 });

    // The accumulator proof holds per bucket: 32 weights of 1100 for neuron 5 spread over two
    // buckets pass, in one bucket they fail (the bucket's 32 largest exceed 32767).
    let n = 16;
    let map: [u8; 32] = std::array::from_fn(|sq| (sq / 16) as u8);
    let (fb, ow) = (vec![0i16; n], vec![0i16; 2 * n]);
    let mut spread = vec![0i16; 2 * INPUTS * n];
    for f in 0..32 {
        spread[(f * 48) * n + 5] = 1_100; // bucket 0 for f < 16, 1 after
    }
    assert!(Network::from_bytes(&handmade_v3([16, 1, 2, 1], &map, &spread, &fb, &ow, &[0])).is_ok());
    let mut together = vec![0i16; 2 * INPUTS * n];
    for f in 0..32 {
        together[(INPUTS + f * 20) * n + 5] = 1_100; // all in bucket 1
    }
    let file = handmade_v3([16, 1, 2, 1], &map, &together, &fb, &ow, &[0]);
    assert_eq!(read(&file), NetworkError::AccumulatorCouldOverflow { neuron: 5 });

    // Every truncation and every single-byte change of the header and the map is an error,
    // never a panic.
    for cut in 0..60 {
        assert!(Network::from_bytes(&good[..cut]).is_err());
    }
    for at in 0..56 {
        for value in [0, 1, 2, 7, 31, 32, 33, 128, 255] {
            let mut bad = good.clone();
            bad[at] = value;
            reseal(&mut bad);
            if bad != good {
                let _ = Network::from_bytes(&bad);
            }
        }
    }
}

#[test]
fn version_3_error_messages_say_what_is_wrong() {
    let errors = [
        (NetworkError::UnsupportedKingBuckets(33), "33 king buckets"),
        (NetworkError::UnknownLayoutFlags(2), "flags"),
        (NetworkError::UnsupportedInputSet(7), "input set is number 7"),
        (NetworkError::KingBucketOutOfRange { square: 5, bucket: 40 }, "square 5 bucket 40"),
        (NetworkError::KingBucketUnused { bucket: 3 }, "never uses bucket 3"),
        (NetworkError::KingBucketCountMismatch { header: 8, map: 4 }, "8 king buckets"),
    ];
    for (error, needle) in errors {
        let message = error.to_string();
        assert!(message.contains(needle), "{message:?} lacks {needle:?}");
        assert!(!message.contains('\n'));
    }
}
