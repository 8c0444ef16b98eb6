//! Materials: the pieces of a table, from its file name or from a position, and the key that
//! finds a table for a position.

use cutoff_board::{Board, Color, PieceType};

/// The most pieces (kings included) a Syzygy table can have.
pub(crate) const MAX_PIECES: usize = 7;

/// Piece counts `[colour][type]` (pawn..king), colour 0 being the first side of a table name
/// or White of a position.
pub(crate) type Counts = [[u8; 6]; 2];

/// A material signature: counts of the five non-king piece types of each side, four bits each
/// (first side in bits 0..20, second in 20..40). Kings are not counted.
pub(crate) fn key(counts: &Counts) -> u64 {
    let mut key = 0u64;
    for (c, side) in counts.iter().enumerate() {
        for (k, &n) in side.iter().take(5).enumerate() {
            key |= u64::from(n.min(15)) << (4 * (c * 5 + k));
        }
    }
    key
}

/// The counts of a position (White first).
pub(crate) fn counts_of(board: &Board) -> Counts {
    let mut counts = [[0u8; 6]; 2];
    for color in Color::ALL {
        for kind in PieceType::ALL {
            counts[color.index()][kind.index()] = board.colored_pieces(color, kind).len() as u8;
        }
    }
    counts
}

/// The material of one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Material {
    /// Counts as named: the first side is "white" in the table's frame.
    pub(crate) counts: Counts,
    /// Key of the counts as named.
    pub(crate) key: u64,
    /// Key of the colour-swapped counts.
    pub(crate) swapped_key: u64,
    /// Pieces, kings included.
    pub(crate) pieces: usize,
}

impl Material {
    /// Parses a table name such as `KRPvKB`: each side one king and any other pieces, at most
    /// [`MAX_PIECES`] in all.
    pub(crate) fn from_name(name: &str) -> Option<Material> {
        let (first, second) = name.split_once('v')?;
        let mut counts = [[0u8; 6]; 2];
        for (side, letters) in [first, second].into_iter().enumerate() {
            if !letters.starts_with('K') || letters[1..].contains('K') {
                return None;
            }
            for c in letters.chars() {
                let kind = PieceType::from_char(c).filter(|_| c.is_ascii_uppercase())?;
                counts[side][kind.index()] += 1;
            }
        }
        let pieces: usize = counts.iter().flatten().map(|&n| usize::from(n)).sum();
        if pieces > MAX_PIECES {
            return None;
        }
        let swapped = [counts[1], counts[0]];
        Some(Material { counts, key: key(&counts), swapped_key: key(&swapped), pieces })
    }

    /// Both colourings have the same pieces (KRvKR).
    pub(crate) fn symmetric(&self) -> bool {
        self.key == self.swapped_key
    }

    pub(crate) fn has_pawns(&self) -> bool {
        self.counts[0][0] + self.counts[1][0] > 0
    }

    /// Both sides have pawns.
    pub(crate) fn both_pawns(&self) -> bool {
        self.counts[0][0] > 0 && self.counts[1][0] > 0
    }

    /// Some side has exactly one of some piece type other than the king.
    pub(crate) fn has_unique_piece(&self) -> bool {
        self.counts.iter().any(|side| side[..5].contains(&1))
    }

    /// The piece codes of the table, sorted (1..6 first side pawn..king, 9..14 second side).
    pub(crate) fn codes(&self) -> Vec<u8> {
        let mut codes = Vec::with_capacity(self.pieces);
        for (side, counts) in self.counts.iter().enumerate() {
            for (kind, &n) in counts.iter().enumerate() {
                codes.extend(std::iter::repeat_n((side as u8) << 3 | (kind as u8 + 1), usize::from(n)));
            }
        }
        codes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let m = Material::from_name("KRPvKB").unwrap();
        assert_eq!(m.pieces, 5);
        assert!(m.has_pawns() && !m.both_pawns() && m.has_unique_piece() && !m.symmetric());
        assert_eq!(m.codes(), vec![1, 4, 6, 11, 14]);
        assert!(Material::from_name("KRvKR").unwrap().symmetric());
        assert!(!Material::from_name("KNNvK").unwrap().has_unique_piece());
        for bad in ["KRK", "RvK", "KKvK", "KXvK", "KQQQQQQvK"] {
            assert_eq!(Material::from_name(bad), None, "{bad}");
        }
    }
}
