//! The training positions: read from game files or text lines, split into training and
//! validation by game, and kept packed (32 bytes a position) until a batch needs their
//! features.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use cutoff_board::{Board, Color, PieceType, Square};
use cutoff_datagen::format::GameReader;
use cutoff_nnue::KingBuckets;

use crate::eval_tune;
use crate::util::Result;

/// The positions of one side of the split (training or validation), each in the compact form
/// of [`Packed`]: the features are computed when a batch needs them, so that memory grows by
/// 32 bytes a position (200 million positions in about 6.4 GB) rather than by the ~120 bytes
/// of their 30-odd feature pairs.
#[derive(Debug, Default)]
pub(super) struct Dataset {
    /// The input layout the features are computed in.
    pub(super) layout: KingBuckets,
    pub(super) positions: Vec<Packed>,
    /// The hand-crafted evaluation of each position in centipawns, from the side to move's
    /// view, where the set keeps it ([`Dataset::with_hce`]): the validation set, on which the
    /// diagnostics compare the network with it. The training set skips it, as evaluating every
    /// position took about a quarter of the loading time.
    pub(super) hce: Option<Vec<f32>>,
}

/// One position and its labels in 32 bytes: the occupied squares, a 4-bit piece code per
/// occupied square, and the labels from the side to move's view. (Aligning it to 32 bytes
/// would keep each in one cache line, but a vector of an alignment above 16 grows by copying
/// rather than by `mremap`, and holds the old and the new buffer at once while it does.)
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Packed {
    /// The occupied squares, low and high 32 bits (two words keep the alignment at 4 bytes).
    occupied: [u32; 2],
    /// The piece of each occupied square in ascending square order, as `color * 6 + kind`,
    /// two to a byte (the low nibble first).
    pub(super) pieces: [u8; 16],
    /// Search score in centipawns, NaN if none.
    pub(super) score: f32,
    /// Bit 0: Black to move; bits 1-2: the game result in half points (2 win, 1 draw, 0 loss);
    /// bit 3: no castling rights, so the position mirrored left to right is a legal position
    /// of the same value.
    flags: u8,
}

impl Packed {
    const BLACK: u8 = 1;
    const MIRRORABLE: u8 = 8;

    /// Game result: 1 win, 0.5 draw, 0 loss.
    pub(super) fn result(&self) -> f32 {
        f32::from((self.flags >> 1) & 3) * 0.5
    }

    pub(super) fn mirrorable(&self) -> bool {
        self.flags & Self::MIRRORABLE != 0
    }

    /// The feature pairs `[stm, other]` of the pieces into `out`, in the order of colour
    /// (White first), piece type (pawn first) and square: the order the sums of the
    /// accumulators are taken in, which the written network depends on bit for bit.
    pub(super) fn features<'a>(&self, layout: &KingBuckets, out: &'a mut [[u16; 2]; 32]) -> &'a [[u16; 2]] {
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
        let kings = (king(stm), king(!stm));
        let mut at = 0;
        for (code, end) in counts[..12].iter().enumerate() {
            let color = Color::from_index(code / 6);
            let kind = PieceType::ALL[code % 6];
            while at < usize::from(*end) {
                let sq = Square::index_const(usize::from(sorted[at]));
                // At most 32 x 768 features: they fit a u16.
                let own = layout.feature(stm, kings.0, color, kind, sq) as u16;
                let other = layout.feature(!stm, kings.1, color, kind, sq) as u16;
                out[at] = [own, other];
                at += 1;
            }
        }
        &out[..n]
    }
}

/// Marks an entry of the training order as the mirrored position (see [`TrainArgs::mirror`](super::TrainArgs::mirror)).
pub(super) const MIRRORED: u32 = 1 << 31;

impl Dataset {
    /// An empty set whose features are of `layout`.
    pub(super) fn new(layout: KingBuckets) -> Dataset {
        Dataset { layout, ..Dataset::default() }
    }

    /// An empty set whose features are of `layout` that also keeps each position's
    /// hand-crafted evaluation.
    pub(super) fn with_hce(layout: KingBuckets) -> Dataset {
        Dataset { hce: Some(Vec::new()), ..Dataset::new(layout) }
    }

    pub(super) fn len(&self) -> usize {
        self.positions.len()
    }

    /// Adds a position with its result and score from the side to move's view. A position
    /// needs a king of each colour and at most 32 pieces.
    pub(super) fn push(&mut self, board: &Board, result: f32, score: Option<f32>) -> Result<()> {
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
            _ => return Err(format!("result {result}: expected 0, 0.5 or 1").into()),
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
        if let Some(hce) = &mut self.hce {
            hce.push(cutoff_eval::evaluate(board) as f32);
        }
        Ok(())
    }

    /// The hand-crafted evaluation of each position of a set that keeps them
    /// ([`Dataset::with_hce`]); empty for a set that does not.
    pub(super) fn hce(&self) -> &[f32] {
        let hce = self.hce.as_deref().unwrap_or_default();
        debug_assert!(self.hce.is_none() || hce.len() == self.positions.len());
        hce
    }

    /// The features of position `index` (see [`Packed::features`]).
    pub(super) fn features<'a>(&self, index: usize, buffer: &'a mut [[u16; 2]; 32]) -> &'a [[u16; 2]] {
        self.positions[index].features(&self.layout, buffer)
    }

    /// The position of a training-order entry, and its features in `buffer` (mirrored if the
    /// entry is marked [`MIRRORED`]: the file of a square is its index's low three bits, the
    /// same for both perspectives, so mirroring flips them; only entries of the layout
    /// [`KingBuckets::NONE`] are marked).
    pub(super) fn entry<'a>(&self, entry: u32, buffer: &'a mut [[u16; 2]; 32]) -> (&Packed, &'a [[u16; 2]]) {
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

/// Names the data files for the first progress line: all of them when they are few, else the
/// count, the first and the last, each path as given (the sets are told apart by their folders,
/// their files all being named `games-N.bin`).
pub(super) fn describe_files(files: &[PathBuf]) -> String {
    let shown: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    match shown.as_slice() {
        [] => "no files".into(),
        [one] => one.clone(),
        [first, .., last] if shown.len() > 4 => format!("{} files ({first}, ..., {last})", shown.len()),
        all => format!("{} files ({})", all.len(), all.join(", ")),
    }
}

/// What [`load`] read from one file: its part of a run's identity (see [`checkpoint`](super::checkpoint)).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct FileInfo {
    /// The file name, without its folder (a resumed run may find the files elsewhere).
    pub(super) name: String,
    /// Its size in bytes.
    pub(super) bytes: u64,
    /// The positions read from it.
    pub(super) positions: usize,
}

/// Reads the data files (see [`TrainArgs::data`](super::TrainArgs::data)), streaming: `cutoff datagen` game files,
/// recognised by their magic bytes, or EPD. Each position goes to `validation` if `held`
/// holds for its group (a game's number, or an EPD line's, counted over the files), otherwise
/// to `training`; at most `limit` positions are read in all.
pub(super) fn load(
    files: &[PathBuf],
    limit: Option<usize>,
    held: impl Fn(u32) -> bool,
    training: &mut Dataset,
    validation: &mut Dataset,
) -> Result<Vec<FileInfo>> {
    let mut group = 0u32;
    let mut count = 0usize;
    let full = |count: usize| limit.is_some_and(|l| count >= l);
    let mut infos = Vec::new();
    for file in files {
        if full(count) {
            break;
        }
        let before = count;
        let name = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into());
        let opened = fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let bytes = opened.metadata().map_err(|e| format!("cannot read {}: {e}", file.display()))?.len();
        let mut reader = BufReader::with_capacity(1 << 20, opened);
        let head = reader.fill_buf().map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        if head.starts_with(&cutoff_datagen::format::MAGIC) {
            let games = GameReader::new(reader).map_err(|e| format!("{}: {e}", file.display()))?;
            'games: for game in games {
                let game = game.map_err(|e| format!("{}: {e}", file.display()))?;
                let set = if held(group) { &mut *validation } else { &mut *training };
                for p in game.positions() {
                    if full(count) {
                        break 'games;
                    }
                    set.push(&p.board, p.result, p.score.map(f32::from))
                        .map_err(|e| format!("{}: {e}", file.display()))?;
                    count += 1;
                }
                group += 1;
            }
        } else {
            for (n, line) in reader.lines().enumerate() {
                let line = line.map_err(|_| format!("{}: neither a game file nor EPD text", file.display()))?;
                if line.trim().is_empty() || line.starts_with('#') {
                    continue;
                }
                if full(count) {
                    break;
                }
                let at = |e| format!("{}:{}: {e}", file.display(), n + 1);
                let (board, result_white, score_white) = eval_tune::parse_line(&line).map_err(at)?;
                let white = board.side_to_move() == Color::White;
                let result = if white { result_white } else { 1.0 - result_white };
                let score = score_white.map(|s| if white { s } else { -s });
                let set = if held(group) { &mut *validation } else { &mut *training };
                set.push(&board, result, score).map_err(at)?;
                count += 1;
                group += 1;
            }
        }
        infos.push(FileInfo { name, bytes, positions: count - before });
    }
    Ok(infos)
}

/// Whether `group` is held out for validation: a hash of the group and the seed, so that the
/// split does not depend on the order of the files' games.
pub(super) fn held_out(group: u32, seed: u64, share: f64) -> bool {
    let hash = cutoff_board::SplitMix64::new(seed ^ u64::from(group).wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64();
    (hash >> 11) as f64 / (1u64 << 53) as f64 <= share && share > 0.0
}
