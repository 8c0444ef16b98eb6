//! The training positions, kept packed (32 bytes a position) until a batch needs their
//! features.

use cutoff_board::{Board, Color, PieceType, Square};
use cutoff_nnue::{InputSet, Inputs};

/// A position to train on, with its labels from the side to move's view: what an in-memory
/// [`Source`](crate::Source) holds.
///
/// ```
/// use cutoff_train::Position;
/// use cutoff_train::cutoff_board::{Board, CastlingMode};
///
/// let board = Board::from_fen("8/8/4k3/8/2R5/8/4K3/8 w - - 0 1", CastlingMode::Standard).unwrap();
/// // White to move, a rook up: the search said +700 cp and White won.
/// let position = Position { board, result: 1.0, score: Some(700.0) };
/// assert_eq!(position, Position::from_epd("8/8/4k3/8/2R5/8/4K3/8 w - - c9 \"1-0\"; ce 700;").unwrap());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    /// The position: a king of each colour and at most 32 pieces.
    pub board: Board,
    /// The game's result for the side to move: 1.0 a win, 0.5 a draw, 0.0 a loss.
    pub result: f32,
    /// The search score in centipawns from the side to move's view, if there is one;
    /// without one the target is the result alone.
    pub score: Option<f32>,
}

/// The positions of one side of the split (training or validation), each in the compact form
/// of [`Packed`]: the features are computed when a batch needs them, so that memory grows by
/// 32 bytes a position (200 million positions in about 6.4 GB) rather than by the ~120 bytes
/// of their 30-odd feature pairs.
#[derive(Debug, Default)]
pub(crate) struct Dataset {
    /// The input layout the features are computed in.
    pub(crate) layout: Inputs,
    pub(crate) positions: Vec<Packed>,
    /// The reference evaluation of each position in centipawns, from the side to move's view,
    /// where the set keeps it ([`Dataset::with_reference`]): the validation set, on which the
    /// diagnostics compare the network with it. The training set skips it, as evaluating every
    /// position adds about a third to the loading time.
    pub(crate) reference: Option<Vec<f32>>,
    /// The evaluation that fills `reference`.
    evaluate: Option<fn(&Board) -> i32>,
}

/// One position and its labels in 32 bytes: the occupied squares, a 4-bit piece code per
/// occupied square, and the labels from the side to move's view. (Aligning it to 32 bytes
/// would keep each in one cache line, but a vector of an alignment above 16 grows by copying
/// rather than by `mremap`, and holds the old and the new buffer at once while it does.)
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Packed {
    /// The occupied squares, low and high 32 bits (two words keep the alignment at 4 bytes).
    occupied: [u32; 2],
    /// The piece of each occupied square in ascending square order, as `color * 6 + kind`,
    /// two to a byte (the low nibble first).
    pub(crate) pieces: [u8; 16],
    /// Search score in centipawns, NaN if none.
    pub(crate) score: f32,
    /// Bit 0: Black to move; bits 1-2: the game result in half points (2 win, 1 draw, 0 loss);
    /// bit 3: no castling rights, so the position mirrored left to right is a legal position
    /// of the same value.
    flags: u8,
}

impl Packed {
    const BLACK: u8 = 1;
    const MIRRORABLE: u8 = 8;

    /// Game result: 1 win, 0.5 draw, 0 loss.
    pub(crate) fn result(&self) -> f32 {
        f32::from((self.flags >> 1) & 3) * 0.5
    }

    pub(crate) fn mirrorable(&self) -> bool {
        self.flags & Self::MIRRORABLE != 0
    }

    /// The feature pairs `[stm, other]` of the pieces into `out`, in the order of colour
    /// (White first), piece type (pawn first) and square: the order the sums of the
    /// accumulators are taken in, which the written network depends on bit for bit.
    pub(crate) fn features<'a>(&self, layout: &Inputs, out: &'a mut [[u16; 2]; 32]) -> &'a [[u16; 2]] {
        let mut occupied = u64::from(self.occupied[0]) | u64::from(self.occupied[1]) << 32;
        // Squares sorted by piece code, each code's squares ascending (a counting sort).
        let mut codes = [0u8; 32];
        let mut squares = [0u8; 32];
        let mut counts = [0u8; 13];
        let mut n = 0;
        while occupied != 0 {
            let code = (self.pieces[n / 2] >> (4 * (n % 2))) & 15;
            codes[n] = code;
            squares[n] = occupied.trailing_zeros() as u8;
            counts[usize::from(code) + 1] += 1;
            occupied &= occupied - 1;
            n += 1;
        }
        for c in 1..13 {
            counts[c] += counts[c - 1];
        }
        let mut sorted = [0u8; 32];
        for (&code, &sq) in codes[..n].iter().zip(&squares[..n]) {
            sorted[usize::from(counts[usize::from(code)])] = sq;
            counts[usize::from(code)] += 1;
        }
        let stm = Color::from_index(usize::from(self.flags & Self::BLACK));
        // After the sort `counts[c]` is the end of code `c`'s squares: a king is the last of
        // its colour's codes (5 and 11), and a packed position has one king of each colour.
        let king =
            |color: Color| Square::index_const(usize::from(sorted[usize::from(counts[color.index() * 6 + 5]) - 1]));
        let views = (layout.view(stm, king(stm)), layout.view(!stm, king(!stm)));
        let mut at = 0;
        for (code, end) in counts[..12].iter().enumerate() {
            let color = Color::from_index(code / 6);
            let kind = PieceType::ALL[code % 6];
            while at < usize::from(*end) {
                let sq = Square::index_const(usize::from(sorted[at]));
                // At most 32 x 768 features: they fit a u16.
                let own = Inputs::index(views.0, color, kind, sq) as u16;
                let other = Inputs::index(views.1, color, kind, sq) as u16;
                out[at] = [own, other];
                at += 1;
            }
        }
        &out[..n]
    }
}

/// Marks an entry of the training order as the mirrored position (see
/// [`TrainConfig::mirror`](crate::TrainConfig::mirror)).
pub(crate) const MIRRORED: u32 = 1 << 31;

impl Dataset {
    /// An empty set whose features are of `layout`.
    pub(crate) fn new(layout: Inputs) -> Dataset {
        Dataset { layout, ..Dataset::default() }
    }

    /// An empty set whose features are of `layout` that also keeps each position's
    /// evaluation by `evaluate`.
    pub(crate) fn with_reference(layout: Inputs, evaluate: fn(&Board) -> i32) -> Dataset {
        Dataset { reference: Some(Vec::new()), evaluate: Some(evaluate), ..Dataset::new(layout) }
    }

    pub(crate) fn len(&self) -> usize {
        self.positions.len()
    }

    /// Adds a position with its result and score from the side to move's view. A position
    /// needs a king of each colour and at most 32 pieces.
    pub(crate) fn push(&mut self, board: &Board, result: f32, score: Option<f32>) -> Result<(), String> {
        if self.positions.len() >= MIRRORED as usize {
            return Err("too many positions (at most 2^31)".into());
        }
        let occupied = board.occupied().0;
        if occupied.count_ones() > 32 {
            return Err("a position with more than 32 pieces".into());
        }
        let mut pieces = [0u8; 16];
        for (n, sq) in board.occupied().into_iter().enumerate() {
            let piece = board.piece_on(sq).ok_or("a square of the occupied set is empty")?;
            let code = (piece.color().index() * 6 + piece.kind().index()) as u8;
            pieces[n / 2] |= code << (4 * (n % 2));
        }
        for color in Color::ALL {
            if board.colored_pieces(color, PieceType::King).0.count_ones() != 1 {
                return Err("a position without one king of each colour".into());
            }
        }
        let half_points = match result {
            0.0 => 0,
            0.5 => 1,
            1.0 => 2,
            _ => return Err(format!("result {result}: expected 0, 0.5 or 1")),
        };
        let mut flags = (half_points << 1) | if board.side_to_move() == Color::Black { Packed::BLACK } else { 0 };
        if board.castling_rights().is_empty() {
            flags |= Packed::MIRRORABLE;
        }
        self.positions.push(Packed {
            occupied: [occupied as u32, (occupied >> 32) as u32],
            pieces,
            score: score.unwrap_or(f32::NAN),
            flags,
        });
        if let (Some(values), Some(evaluate)) = (&mut self.reference, self.evaluate) {
            values.push(evaluate(board) as f32);
        }
        Ok(())
    }

    /// The reference evaluation of each position of a set that keeps them
    /// ([`Dataset::with_reference`]); empty for a set that does not.
    pub(crate) fn reference(&self) -> &[f32] {
        let values = self.reference.as_deref().unwrap_or_default();
        debug_assert!(self.reference.is_none() || values.len() == self.positions.len());
        values
    }

    /// The features of position `index` (see [`Packed::features`]).
    pub(crate) fn features<'a>(&self, index: usize, buffer: &'a mut [[u16; 2]; 32]) -> &'a [[u16; 2]] {
        self.positions[index].features(&self.layout, buffer)
    }

    /// The position of a training-order entry, and its features in `buffer` (mirrored if the
    /// entry is marked [`MIRRORED`]: the file of a square is its index's low three bits, the
    /// same for both perspectives, so mirroring flips them; only entries of the layout
    /// [`Inputs::NONE`] are marked).
    pub(crate) fn entry<'a>(&self, entry: u32, buffer: &'a mut [[u16; 2]; 32]) -> (&Packed, &'a [[u16; 2]]) {
        let sample = &self.positions[(entry & !MIRRORED) as usize];
        let len = sample.features(&self.layout, buffer).len();
        if entry & MIRRORED != 0 {
            for f in &mut buffer[..len] {
                *f = [f[0] ^ 7, f[1] ^ 7];
            }
        }
        (sample, &buffer[..len])
    }
}

#[cfg(test)]
mod tests;
