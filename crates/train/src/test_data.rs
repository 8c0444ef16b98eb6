//! The positions the unit tests train on.

use cutoff_nnue::KingBuckets;

use crate::data::{Dataset, Position};

/// A few positions of the kinds the trainer sees, labelled as EPD.
pub(crate) const EPD: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1/2-1/2\"; ce 20;
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c9 \"1-0\"; ce 35;
8/8/4k3/8/2R5/8/4K3/8 w - - c9 \"1-0\"; ce 700;
8/5k2/8/3q4/8/8/4K3/8 b - - c9 \"0-1\"; ce 900;
r3k2r/ppp2ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R w KQkq - c9 \"0-1\"; ce -150;
4k3/8/8/8/8/8/4P3/4K3 w - - c9 \"1/2-1/2\";
";

/// The test positions with the features of no king buckets.
pub(crate) fn dataset() -> Dataset {
    dataset_of(KingBuckets::NONE)
}

/// The test positions with the features of `layout`.
pub(crate) fn dataset_of(layout: KingBuckets) -> Dataset {
    let mut data = Dataset::new(layout);
    for line in EPD.lines() {
        let p = Position::from_epd(line).unwrap();
        data.push(&p.board, p.result, p.score).unwrap();
    }
    data
}
