//! Network input sets: which features a position turns on in each perspective.
//!
//! The accumulator, the reference evaluation, the file format and the trainer
//! (`cutoff-train`) reach the features only through [`InputSet`], and a build's networks all
//! use one set, [`Inputs`]. A new kind of input is therefore one type implementing the trait
//! (and its test), with the alias pointing at it.

use core::fmt::Debug;

use cutoff_board::{Color, PieceType, Square};

use crate::NetworkError;

/// A set of network input features: for each perspective (the side whose half of the
/// accumulator is computed), which features each piece turns on, and when a move changes them
/// all at once.
///
/// A feature is a row of the feature weights (`0..inputs()`). Each piece turns on exactly one
/// feature per perspective, chosen by the piece, its square and the perspective's own king
/// square (the only global context a set may read: the accumulator updates a perspective
/// incrementally while its king stays in one *refresh class*, and recomputes it when the king
/// moves to another).
///
/// [`KingBuckets`](crate::KingBuckets) (768 features per king bucket, with optional left-right
/// mirroring) is the set of every network so far.
///
/// ```
/// use cutoff_board::{Color, PieceType, Square};
/// use cutoff_nnue::{InputSet, KingBuckets};
///
/// // Two buckets: kings on their first rank, and the rest; mirrored so the king is on a-d.
/// let mut map = [1; 32];
/// map[..4].fill(0);
/// let set = KingBuckets::new(true, map).unwrap();
/// assert_eq!((set.inputs(), KingBuckets::MAX_ACTIVE, KingBuckets::ID), (2 * 768, 32, 0));
///
/// // White's king on g1: bucket 0, mirrored, so a white pawn on h2 is "own pawn on a2".
/// let view = set.view(Color::White, Square::G1);
/// assert_eq!(KingBuckets::index(view, Color::White, PieceType::Pawn, Square::H2), 8);
/// assert_eq!(set.feature(Color::White, Square::G1, Color::White, PieceType::Pawn, Square::H2), 8);
///
/// // A king move within its refresh class is an update; across classes, a refresh.
/// assert!(!set.needs_refresh(Color::White, Square::G1, Square::H1));
/// assert!(set.needs_refresh(Color::White, Square::E1, Square::D1)); // the mirroring flips
/// assert!(set.needs_refresh(Color::White, Square::G1, Square::G2)); // another bucket
/// ```
pub trait InputSet: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// How one perspective indexes features with its king on one square: worked out once per
    /// accumulator update and used for each piece the update adds or removes.
    type View: Copy + Debug;

    /// The number a network file names this set by (the high byte of the layout flags, see
    /// the format in [`Network::from_bytes`](crate::Network::from_bytes)): a file of another
    /// set is refused with [`NetworkError::UnsupportedInputSet`].
    const ID: u8;

    /// The most features one perspective has on at once: the trainer's buffers hold this many
    /// per position.
    const MAX_ACTIVE: usize;

    /// The number of input features per perspective (the rows of the feature weights).
    fn inputs(&self) -> usize;

    /// How `perspective` indexes features with its king on `king`.
    fn view(&self, perspective: Color, king: Square) -> Self::View;

    /// The feature of a piece of `color` and type `kind` on `sq`, seen through `view`.
    fn index(view: Self::View, color: Color, kind: PieceType, sq: Square) -> usize;

    /// The feature of a piece of `color` and type `kind` on `sq`, seen from `perspective`
    /// whose king is on `king`.
    #[inline(always)]
    fn feature(&self, perspective: Color, king: Square, color: Color, kind: PieceType, sq: Square) -> usize {
        Self::index(self.view(perspective, king), color, kind, sq)
    }

    /// The number of refresh classes of one perspective (1: a king move never changes the
    /// other features).
    fn refresh_classes(&self) -> usize;

    /// The refresh class (`0..refresh_classes()`) of `perspective` with its king on `king`:
    /// while its king stays in one class, a move changes only the features of the pieces it
    /// moves. The accumulator keeps one refresh-cache entry per perspective and class.
    fn refresh_class(&self, perspective: Color, king: Square) -> usize;

    /// Whether `perspective`'s king moving from `from` to `to` changes its features beyond
    /// the king's own: then its accumulator is refreshed rather than updated.
    #[inline(always)]
    fn needs_refresh(&self, perspective: Color, from: Square, to: Square) -> bool {
        self.refresh_class(perspective, from) != self.refresh_class(perspective, to)
    }

    /// The trainer's factoriser: the shared feature that `feature` adds to (the same piece on
    /// the same square in every king bucket, say), so that what a position teaches about a
    /// piece reaches every feature of it. Without a factoriser, the feature itself.
    #[inline(always)]
    fn factor(&self, feature: usize) -> usize {
        feature
    }

    /// The number of shared features of the factoriser ([`factor`](Self::factor)'s range).
    #[inline(always)]
    fn factors(&self) -> usize {
        self.inputs()
    }
}

/// The input set of this build's networks: every [`Network`](crate::Network), accumulator and
/// trainer uses it. Today the king-bucketed 768 features of [`KingBuckets`](crate::KingBuckets).
///
/// ```
/// use cutoff_nnue::{InputSet, Inputs, KingBuckets};
/// assert_eq!(Inputs::ID, KingBuckets::ID);
/// assert_eq!(Inputs::NONE.inputs(), 768);
/// ```
pub type Inputs = crate::KingBuckets;

/// Checks that a file's input set is this build's.
pub(crate) fn check_set(id: u8) -> Result<(), NetworkError> {
    if id == <Inputs as InputSet>::ID { Ok(()) } else { Err(NetworkError::UnsupportedInputSet(id)) }
}

/// What the accumulator and the trainer rely on in any input set, checked over every king
/// square, piece and square of both perspectives: each piece turns on one feature in range,
/// no two pieces of a position share one, [`InputSet::feature`] is the view's index, and the
/// features depend on the king only through its refresh class (so a king move within a class
/// changes the king's own feature alone). A new set's test calls it.
#[cfg(test)]
pub(crate) fn check_input_set<I: InputSet>(set: &I) {
    use alloc::vec;
    use cutoff_board::Piece;

    assert!(I::MAX_ACTIVE >= 32, "a position may have 32 pieces");
    let mut first_of_class = vec![None; set.refresh_classes()];
    for perspective in Color::ALL {
        first_of_class.fill(None);
        for king in Square::ALL {
            let class = set.refresh_class(perspective, king);
            assert!(class < set.refresh_classes(), "{perspective} king {king}: class {class}");
            let view = set.view(perspective, king);
            let mut seen = vec![false; set.inputs()];
            for piece in Piece::ALL {
                for sq in Square::ALL {
                    let f = I::index(view, piece.color(), piece.kind(), sq);
                    assert!(f < set.inputs() && set.factor(f) < set.factors());
                    assert_eq!(f, set.feature(perspective, king, piece.color(), piece.kind(), sq));
                    assert!(
                        !core::mem::replace(&mut seen[f], true),
                        "{perspective} king {king}: {piece} {sq} shares {f}"
                    );
                }
            }
            // The same class, the same features: the accumulator updates across such king moves.
            let same = *first_of_class[class].get_or_insert(king);
            assert!(!set.needs_refresh(perspective, same, king));
            for piece in Piece::ALL {
                for sq in Square::ALL {
                    let (a, b) = (set.view(perspective, same), view);
                    assert_eq!(
                        I::index(a, piece.color(), piece.kind(), sq),
                        I::index(b, piece.color(), piece.kind(), sq)
                    );
                }
            }
        }
    }
}
