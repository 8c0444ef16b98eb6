//! Win/draw/loss probabilities from a search score and the material on the board, for
//! UCI's `UCI_ShowWDL`.
//!
//! The model is the one Stockfish popularised: with `s` the score in centipawns (side to move)
//! and `m` the material on the board,
//!
//! ```text
//! win  = 1 / (1 + exp((a(m) - s) / b(m)))
//! loss = 1 / (1 + exp((a(m) + s) / b(m)))
//! draw = 1 - win - loss
//! ```
//!
//! `a(m)` is the score at which a win is as likely as not, `b(m)` how fast the win chance
//! grows with the score; both are cubic polynomials in `m / 58`, with `m` counted as pawn 1,
//! knight and bishop 3, rook 5, queen 9 and clamped to 17..=78. The coefficients were fitted by
//! `cargo xtask wdl` (maximum likelihood on the results of Cutoff's own self-play games;
//! `docs/tuning.md` has the run) and must be refitted when the evaluation's scale changes.
//!
//! ```
//! use cutoff_board::Board;
//! use cutoff_search::wdl::{Wdl, wdl};
//! let start = Board::default();
//! let even = wdl(0, &start);
//! assert_eq!(even.win + even.draw + even.loss, 1000);
//! assert_eq!(even.win, even.loss);
//! assert!(wdl(300, &start).win > wdl(100, &start).win);
//! assert_eq!(wdl(cutoff_tt::MATE - 5, &start), Wdl { win: 1000, draw: 0, loss: 0 });
//! ```

use cutoff_board::{Board, PieceType};
use cutoff_tt::MATE_IN_MAX_PLY;

/// Win, draw and loss probabilities in per mille, for the side to move; they sum to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Per mille chance of a win.
    pub win: u32,
    /// Per mille chance of a draw.
    pub draw: u32,
    /// Per mille chance of a loss.
    pub loss: u32,
}

/// `a(m)` coefficients: `a = A[0] * x³ + A[1] * x² + A[2] * x + A[3]` with `x = m / 58`.
/// Fitted by `cargo xtask wdl --pgn a.pgn --pgn b.pgn --player cutoff-a` (3000 Adam steps,
/// lr 5) on 200 distinct self-play games of the default network `net11` at 50,000 nodes a
/// move: 23,739 scored positions, mean negative log-likelihood 0.6014 (the coefficients
/// fitted to `net10-w768`'s games give 0.6956 on the same positions). `docs/tuning.md` has the
/// runs.
pub const A: [f64; 4] = [76.224, 185.654, -662.476, 499.465];
/// `b(m)` coefficients, as [`A`].
pub const B: [f64; 4] = [123.480, -164.141, -35.615, 133.723];

/// The material count of the model: pawn 1, knight and bishop 3, rook 5, queen 9, both
/// sides, clamped to 17..=78.
pub fn material(board: &Board) -> u32 {
    let count = |kind| board.pieces(kind).len();
    let m = count(PieceType::Pawn)
        + 3 * (count(PieceType::Knight) + count(PieceType::Bishop))
        + 5 * count(PieceType::Rook)
        + 9 * count(PieceType::Queen);
    m.clamp(17, 78)
}

/// The model's `(a, b)` for a material count (see the module documentation).
pub fn params(material: u32) -> (f64, f64) {
    let x = f64::from(material.clamp(17, 78)) / 58.0;
    let poly = |c: &[f64; 4]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
    (poly(&A), poly(&B))
}

/// The probabilities for a search `score` (side to move) in `board`. Mate scores are certain.
pub fn wdl(score: i32, board: &Board) -> Wdl {
    if score >= MATE_IN_MAX_PLY {
        return Wdl { win: 1000, draw: 0, loss: 0 };
    }
    if score <= -MATE_IN_MAX_PLY {
        return Wdl { win: 0, draw: 0, loss: 1000 };
    }
    let (a, b) = params(material(board));
    let s = f64::from(score);
    let win = (1000.0 / (1.0 + ((a - s) / b).exp())).round() as u32;
    let loss = (1000.0 / (1.0 + ((a + s) / b).exp())).round() as u32;
    let (win, loss) = (win.min(1000), loss.min(1000 - win.min(1000)));
    Wdl { win, draw: 1000 - win - loss, loss }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_1000_and_moves_with_the_score() {
        let b = Board::default();
        let mut last = Wdl { win: 0, draw: 0, loss: 1000 };
        for s in (-3000..=3000).step_by(25) {
            let w = wdl(s, &b);
            assert_eq!(w.win + w.draw + w.loss, 1000, "{s}");
            assert!(w.win >= last.win && w.loss <= last.loss, "{s}: {w:?} after {last:?}");
            last = w;
        }
        assert!(wdl(3000, &b).win > 990);
        assert!(wdl(-3000, &b).loss > 990);
    }

    #[test]
    fn symmetric_in_the_score() {
        let b = Board::default();
        for s in [0, 37, 150, 420] {
            let (p, n) = (wdl(s, &b), wdl(-s, &b));
            assert_eq!((p.win, p.draw, p.loss), (n.loss, n.draw, n.win), "{s}");
        }
    }

    #[test]
    fn coefficients_are_sane() {
        for m in 17..=78 {
            let (a, b) = params(m);
            assert!(a > 0.0 && b > 0.0, "{m}: a {a} b {b}");
        }
    }
}
