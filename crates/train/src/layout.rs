//! The named input layouts (king buckets) and the parser of a layout's spec.

use cutoff_nnue::KingBuckets;

use crate::error::TrainError;

/// The 32-entry bucket maps of the named layouts (half-board square `rank * 4 + file`, files
/// a-d).
fn named_map(name: &str) -> Option<[u8; 32]> {
    let map: fn(usize) -> u8 = match name {
        "mirror" => |_| 0,
        "4" => |sq| (sq / 8) as u8,
        "8" => |sq| match sq / 4 {
            0 | 1 => (sq / 4 * 2 + sq % 4 / 2) as u8,
            2 | 3 => (sq / 4 + 2) as u8,
            rank => (rank / 2 + 4) as u8,
        },
        "16" => |sq| (sq / 2) as u8,
        _ => return None,
    };
    Some(std::array::from_fn(map))
}

/// Parses an input layout: `none` (768 inputs, no king buckets), `mirror` (1 bucket, the board
/// mirrored so that the king is on files a-d), `4` (mirrored, by pairs of ranks), `8`
/// (mirrored: ranks 1 and 2 each split in files a-b and c-d, ranks 3 and 4 one bucket each,
/// ranks 5-6 and 7-8), `16` (mirrored, a bucket per rank and pair of files), or 32
/// comma-separated buckets of the half-board squares a1, b1, c1, d1, a2, ..., d8 (mirrored).
/// Ranks are the king's side's.
///
/// ```
/// use cutoff_train::parse_king_buckets;
///
/// let eight = parse_king_buckets("8").unwrap();
/// assert_eq!((eight.count(), eight.mirrored()), (8, true));
/// assert_eq!(eight.inputs(), 8 * 768);
/// assert!(parse_king_buckets("3").is_err());
/// ```
pub fn parse_king_buckets(spec: &str) -> Result<KingBuckets, TrainError> {
    if spec == "none" {
        return Ok(KingBuckets::NONE);
    }
    let bad = |why: String| TrainError::Config(why);
    let map = match named_map(spec) {
        Some(map) => map,
        None => {
            let entries: Vec<u8> =
                spec.split(',').map(|e| e.trim().parse::<u8>()).collect::<Result<_, _>>().map_err(|_| {
                    bad(format!("{spec:?}: expected none, mirror, 4, 8, 16 or 32 comma-separated buckets"))
                })?;
            entries.try_into().map_err(|e: Vec<u8>| bad(format!("a bucket map has 32 entries, not {}", e.len())))?
        }
    };
    KingBuckets::new(true, map).map_err(|e| bad(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_bucket_layouts_parse() {
        let count = |spec: &str| parse_king_buckets(spec).map(|l| (l.count(), l.mirrored())).map_err(|e| e.to_string());
        assert_eq!(count("none"), Ok((1, false)));
        assert_eq!(count("mirror"), Ok((1, true)));
        assert_eq!(count("4"), Ok((4, true)));
        assert_eq!(count("8"), Ok((8, true)));
        assert_eq!(count("16"), Ok((16, true)));
        // The 8-bucket map, rank by rank (a1-d1 first).
        let eight = parse_king_buckets("8").unwrap();
        assert_eq!(
            eight.map(),
            &[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7]
        );
        let explicit: Vec<String> = (0..32).map(|sq| (sq / 16).to_string()).collect();
        assert_eq!(count(&explicit.join(",")), Ok((2, true)));
        assert!(parse_king_buckets("3").is_err());
        assert!(count("0,1,2").unwrap_err().contains("32 entries"));
        let gap: Vec<String> = (0..32).map(|sq| (2 * (sq / 16)).to_string()).collect();
        assert!(count(&gap.join(",")).unwrap_err().contains("never uses bucket 1"));
    }
}
