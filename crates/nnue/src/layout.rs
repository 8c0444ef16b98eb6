//! King-bucketed input layouts: which 768-feature block a perspective's pieces use, and whether
//! the board is mirrored left to right, both chosen by that perspective's own king.

use cutoff_board::{Color, PieceType, Square};

use crate::{INPUTS, InputSet, NetworkError};

/// The most king buckets a layout may have: one per square of the half board.
///
/// ```
/// assert_eq!(cutoff_nnue::MAX_KING_BUCKETS, 32);
/// ```
pub const MAX_KING_BUCKETS: usize = 32;

/// The input layout of a network: king buckets and horizontal mirroring.
///
/// Each perspective sees the board as today (ranks flipped for Black), and, if the layout
/// mirrors, also mirrored left to right (files a ↔ h) whenever its own king stands on files
/// e to h, so that its king is always on files a to d. The king's square on that half board
/// (`rank × 4 + file`, a1 = 0, d1 = 3, a2 = 4, …, d8 = 31, [`KingBuckets::half_square`]) picks
/// a bucket from the 32-entry map, and the perspective's features are
/// `bucket × 768 + feature`, with `feature` the 768-feature index of the (mirrored) square
/// ([`feature_index`](crate::feature_index)). Without mirroring, a king on files e to h takes
/// the bucket of its mirror square, and the features are not mirrored.
///
/// [`KingBuckets::NONE`] (one bucket, no mirroring) is the plain `768`-input layout of format
/// version 2 and of every network before king buckets.
///
/// ```
/// use cutoff_board::{Color, PieceType, Square};
/// use cutoff_nnue::{KingBuckets, feature_index};
/// // Two buckets: kings on the first two ranks (of their own side), and the rest.
/// let mut map = [1; 32];
/// map[..8].fill(0);
/// let layout = KingBuckets::new(true, map).unwrap();
/// assert_eq!((layout.count(), layout.inputs()), (2, 2 * 768));
/// // White's king on g1: bucket 0, mirrored, so a white pawn on h2 is "own pawn on a2".
/// let f = layout.feature(Color::White, Square::G1, Color::White, PieceType::Pawn, Square::H2);
/// assert_eq!(f, feature_index(Color::White, Color::White, PieceType::Pawn, Square::A2));
/// // Black's king on e6 (e3 from Black's side): bucket 1, mirrored.
/// let f = layout.feature(Color::Black, Square::E6, Color::White, PieceType::Queen, Square::A1);
/// assert_eq!(f, 768 + feature_index(Color::Black, Color::White, PieceType::Queen, Square::H1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    mirror: bool,
    map: [u8; 32],
    count: u8,
}

/// How one perspective of a [`KingBuckets`] set indexes features for one king square
/// ([`InputSet::View`]): `base + (piece × 64 + (sq ^ xor))`, with the bucket's block as `base`
/// and the rank flip (Black) and file mirror folded into `xor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBucketView {
    perspective: Color,
    base: usize,
    xor: usize,
}

impl KingBuckets {
    /// One bucket and no mirroring: the plain 768-input layout (format version 2).
    ///
    /// ```
    /// use cutoff_nnue::KingBuckets;
    /// assert_eq!((KingBuckets::NONE.count(), KingBuckets::NONE.mirrored()), (1, false));
    /// assert_eq!(KingBuckets::default(), KingBuckets::NONE);
    /// ```
    pub const NONE: KingBuckets = KingBuckets { mirror: false, map: [0; 32], count: 1 };

    /// A layout from its mirroring flag and its bucket map (the bucket of each half-board king
    /// square, see [`KingBuckets::half_square`]). The buckets must be numbered from 0 with no
    /// gap, and fewer than [`MAX_KING_BUCKETS`].
    ///
    /// # Errors
    ///
    /// [`NetworkError::KingBucketOutOfRange`] for an entry of 32 or more, and
    /// [`NetworkError::KingBucketUnused`] for a bucket below the largest that no square uses.
    ///
    /// ```
    /// use cutoff_nnue::{KingBuckets, NetworkError};
    /// let mut map = [0; 32];
    /// map[31] = 2;
    /// assert_eq!(KingBuckets::new(true, map), Err(NetworkError::KingBucketUnused { bucket: 1 }));
    /// map[30] = 1;
    /// assert_eq!(KingBuckets::new(true, map).unwrap().count(), 3);
    /// map[0] = 40;
    /// assert_eq!(KingBuckets::new(true, map), Err(NetworkError::KingBucketOutOfRange { square: 0, bucket: 40 }));
    /// ```
    pub const fn new(mirror: bool, map: [u8; 32]) -> Result<KingBuckets, NetworkError> {
        let mut used = [false; MAX_KING_BUCKETS];
        let mut count = 0;
        let mut square = 0;
        while square < 32 {
            let bucket = map[square] as usize;
            if bucket >= MAX_KING_BUCKETS {
                return Err(NetworkError::KingBucketOutOfRange { square, bucket: map[square] });
            }
            used[bucket] = true;
            if bucket + 1 > count {
                count = bucket + 1;
            }
            square += 1;
        }
        let mut bucket = 0;
        while bucket < count {
            if !used[bucket] {
                return Err(NetworkError::KingBucketUnused { bucket });
            }
            bucket += 1;
        }
        Ok(KingBuckets { mirror, map, count: count as u8 })
    }

    /// Whether the board is mirrored left to right for a perspective whose king is on files
    /// e to h.
    ///
    /// ```
    /// use cutoff_nnue::KingBuckets;
    /// assert!(KingBuckets::new(true, [0; 32]).unwrap().mirrored());
    /// ```
    #[inline]
    pub const fn mirrored(&self) -> bool {
        self.mirror
    }

    /// The bucket of each half-board king square (`rank × 4 + file`, files a to d).
    ///
    /// ```
    /// use cutoff_nnue::KingBuckets;
    /// assert_eq!(KingBuckets::NONE.map(), &[0; 32]);
    /// ```
    #[inline]
    pub const fn map(&self) -> &[u8; 32] {
        &self.map
    }

    /// The number of king buckets `K` (1 to [`MAX_KING_BUCKETS`]).
    ///
    /// ```
    /// use cutoff_nnue::KingBuckets;
    /// let map = core::array::from_fn(|sq| (sq / 8) as u8); // by pairs of ranks
    /// assert_eq!(KingBuckets::new(true, map).unwrap().count(), 4);
    /// ```
    #[inline]
    pub const fn count(&self) -> usize {
        self.count as usize
    }

    /// The number of input features per perspective: `K × 768`.
    ///
    /// ```
    /// use cutoff_nnue::KingBuckets;
    /// assert_eq!(KingBuckets::NONE.inputs(), 768);
    /// ```
    #[inline]
    pub const fn inputs(&self) -> usize {
        self.count() * INPUTS
    }

    /// The half-board square (0 to 31) of `perspective`'s king on `king`: seen from
    /// `perspective` (ranks flipped for Black), files e to h folded onto d to a; `rank × 4 +
    /// file`.
    ///
    /// ```
    /// use cutoff_board::{Color, Square};
    /// use cutoff_nnue::KingBuckets;
    /// assert_eq!(KingBuckets::half_square(Color::White, Square::E1), 3); // as d1
    /// assert_eq!(KingBuckets::half_square(Color::White, Square::B2), 5);
    /// assert_eq!(KingBuckets::half_square(Color::Black, Square::H8), 0); // as a1
    /// ```
    #[inline(always)]
    pub const fn half_square(perspective: Color, king: Square) -> usize {
        let rel = (king as usize) ^ (56 * perspective as usize);
        let file = rel & 7;
        let folded = if file >= 4 { 7 - file } else { file };
        (rel >> 3) * 4 + folded
    }

    /// The king bucket of `perspective` with its king on `king`.
    ///
    /// ```
    /// use cutoff_board::{Color, Square};
    /// use cutoff_nnue::KingBuckets;
    /// let map = core::array::from_fn(|sq| (sq / 8) as u8);
    /// let layout = KingBuckets::new(true, map).unwrap();
    /// assert_eq!(layout.bucket(Color::White, Square::G1), 0);
    /// assert_eq!(layout.bucket(Color::White, Square::C3), 1);
    /// assert_eq!(layout.bucket(Color::Black, Square::C3), 2); // c6 from Black's side
    /// ```
    #[inline(always)]
    pub const fn bucket(&self, perspective: Color, king: Square) -> usize {
        self.map[Self::half_square(perspective, king)] as usize
    }

    /// Whether `perspective`'s features are mirrored left to right with its king on `king`:
    /// the layout mirrors and the king is on files e to h.
    ///
    /// ```
    /// use cutoff_board::{Color, Square};
    /// use cutoff_nnue::KingBuckets;
    /// let mirror = KingBuckets::new(true, [0; 32]).unwrap();
    /// assert!(mirror.flipped(Color::Black, Square::E8) && !mirror.flipped(Color::Black, Square::D8));
    /// assert!(!KingBuckets::NONE.flipped(Color::White, Square::H1));
    /// ```
    #[inline(always)]
    pub const fn flipped(&self, _perspective: Color, king: Square) -> bool {
        self.mirror && (king as usize & 7) >= 4
    }

    /// The input feature (`0..K × 768`) of a piece of `piece_color` and type `piece` on `sq`,
    /// seen from `perspective` whose king is on `king`: `bucket × 768` plus the
    /// [`feature_index`](crate::feature_index) of the square mirrored left to right if
    /// [`flipped`](Self::flipped).
    ///
    /// ```
    /// use cutoff_board::{Color, PieceType, Square};
    /// use cutoff_nnue::{KingBuckets, feature_index};
    /// let f = KingBuckets::NONE.feature(Color::Black, Square::G8, Color::White, PieceType::Rook, Square::A1);
    /// assert_eq!(f, feature_index(Color::Black, Color::White, PieceType::Rook, Square::A1));
    /// ```
    #[inline(always)]
    pub const fn feature(
        &self,
        perspective: Color,
        king: Square,
        piece_color: Color,
        piece: PieceType,
        sq: Square,
    ) -> usize {
        let flip = if self.flipped(perspective, king) { 7 } else { 0 };
        let theirs = (piece_color as usize) ^ (perspective as usize);
        let xor = (56 * perspective as usize) ^ flip;
        self.bucket(perspective, king) * INPUTS + (theirs * 6 + piece as usize) * 64 + ((sq as usize) ^ xor)
    }
}

impl InputSet for KingBuckets {
    type View = KingBucketView;

    const ID: u8 = 0;

    /// One feature per piece.
    const MAX_ACTIVE: usize = 32;

    #[inline(always)]
    fn inputs(&self) -> usize {
        KingBuckets::inputs(self)
    }

    #[inline(always)]
    fn view(&self, perspective: Color, king: Square) -> KingBucketView {
        let flip = if self.flipped(perspective, king) { 7 } else { 0 };
        KingBucketView {
            perspective,
            base: self.bucket(perspective, king) * INPUTS,
            xor: (56 * perspective as usize) ^ flip,
        }
    }

    #[inline(always)]
    fn index(view: KingBucketView, color: Color, kind: PieceType, sq: Square) -> usize {
        let theirs = (color as usize) ^ (view.perspective as usize);
        view.base + (theirs * 6 + kind as usize) * 64 + ((sq as usize) ^ view.xor)
    }

    /// One class per bucket, two with mirroring (the king on files a-d, e-h).
    #[inline(always)]
    fn refresh_classes(&self) -> usize {
        self.count() << usize::from(self.mirror)
    }

    #[inline(always)]
    fn refresh_class(&self, perspective: Color, king: Square) -> usize {
        (self.bucket(perspective, king) << usize::from(self.mirror)) | usize::from(self.flipped(perspective, king))
    }

    /// The 768 features of a piece type on a square, shared by every bucket.
    #[inline(always)]
    fn factor(&self, feature: usize) -> usize {
        feature % INPUTS
    }

    #[inline(always)]
    fn factors(&self) -> usize {
        INPUTS
    }
}

impl Default for KingBuckets {
    fn default() -> KingBuckets {
        KingBuckets::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature_index;
    use cutoff_board::Piece;

    #[test]
    fn every_layout_is_an_input_set() {
        crate::inputs::check_input_set(&KingBuckets::NONE);
        crate::inputs::check_input_set(&KingBuckets::new(true, [0; 32]).unwrap());
        crate::inputs::check_input_set(&KingBuckets::new(false, core::array::from_fn(|sq| (sq / 8) as u8)).unwrap());
        let sixteen = KingBuckets::new(true, core::array::from_fn(|sq| (sq / 2) as u8)).unwrap();
        crate::inputs::check_input_set(&sixteen);
        assert_eq!(sixteen.refresh_classes(), 32);
        // A king move that changes the bucket or the mirroring needs a refresh, and only that.
        for perspective in Color::ALL {
            for from in Square::ALL {
                for to in Square::ALL {
                    let changes = sixteen.bucket(perspective, from) != sixteen.bucket(perspective, to)
                        || sixteen.flipped(perspective, from) != sixteen.flipped(perspective, to);
                    assert_eq!(sixteen.needs_refresh(perspective, from, to), changes);
                }
            }
        }
    }

    #[test]
    fn no_buckets_is_the_plain_feature_index() {
        for perspective in Color::ALL {
            for king in Square::ALL {
                for piece in Piece::ALL {
                    for sq in Square::ALL {
                        assert_eq!(
                            KingBuckets::NONE.feature(perspective, king, piece.color(), piece.kind(), sq),
                            feature_index(perspective, piece.color(), piece.kind(), sq)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn each_king_square_covers_its_bucket_once_and_mirrors_to_files_a_to_d() {
        let layout = KingBuckets::new(true, core::array::from_fn(|sq| (sq % 4 + sq / 16 * 4) as u8)).unwrap();
        assert_eq!(layout.count(), 8);
        for perspective in Color::ALL {
            for king in Square::ALL {
                let bucket = layout.bucket(perspective, king);
                let mut seen = alloc::vec![false; INPUTS];
                for piece in Piece::ALL {
                    for sq in Square::ALL {
                        let f = layout.feature(perspective, king, piece.color(), piece.kind(), sq);
                        assert_eq!(f / INPUTS, bucket);
                        assert!(!core::mem::replace(&mut seen[f % INPUTS], true));
                    }
                }
                // The own king is always seen on files a to d.
                let own = layout.feature(perspective, king, perspective, PieceType::King, king) % 64;
                assert!(own % 8 < 4, "{perspective} {king}");
                // The mirror image of the king's square has the same bucket.
                assert_eq!(layout.bucket(perspective, king.flip_file()), bucket);
            }
        }
    }
}
