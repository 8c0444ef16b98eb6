//! The game record format: whole games in about 4 bytes per position.
//!
//! A file is a 12-byte header followed by games back to back, with no index and no count, so
//! a file is written by appending and a partial last game (a generator stopped while writing)
//! is detected by the reader and can be cut off. All integers are little-endian.
//!
//! # File header (12 bytes)
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `b"CUTOFFGR"` ([`MAGIC`]) |
//! | 8..12 | format version, `u32`: 1 ([`Encoding::Plain`], below) or 2 ([`Encoding::Compact`]) |
//!
//! # Game (version 1)
//!
//! | size | field |
//! |---|---|
//! | 16 + ⌈n/2⌉ | the start position, packed (below; `n` pieces) |
//! | 1 | the result ([`GameResult::to_byte`]): 0 Black won, 1 draw, 2 White won |
//! | 4 per ply | `u16` move, then `i16` score: one record per move played |
//! | 4 | terminator: `u16` 0, then the `i16` score of the final position |
//!
//! **Move**: [`Move::raw`] of `cutoff-board` (from square in bits 0–5, to square in bits 6–11,
//! a [`MoveKind`](cutoff_board::MoveKind) flag in bits 12–15; castling is "king takes own rook",
//! so the same encoding serves Chess960). No move encodes to 0 (`from == to`), so 0 ends the game.
//!
//! **Score**: the search score of the position *before* the move, from the side to move's point
//! of view, in centipawns. It is Cutoff's search score unchanged, clamped to ±32000
//! ([`SCORE_MAX`]); Cutoff's mate scores fit in it as they are: mate in `n` plies is
//! `32000 - n` (`cutoff_tt::MATE - n`), being mated in `n` plies `-(32000 - n)`, so any
//! `|score| >= 31872` (`MATE_IN_MAX_PLY`) is a mate, and Syzygy wins found by the search are
//! just below that. `-32768` ([`NO_SCORE`]) means "no score" (a position labelled only with the
//! game result, or the final position of a self-play game, which is never searched; on a move,
//! a position the game does not vouch for, such as a scored opening's position whose search
//! chose a noisy move: no training position, see [`is_training_position`]). Scores between
//! 32000 and 32767 in absolute value are rejected as corrupt.
//!
//! The terminator's score belongs to the final position (the one after the last move): a
//! position from an EPD file, converted to a game of no moves, carries its score there.
//!
//! # Packed position (16 + ⌈n/2⌉ bytes: 32 for 32 pieces)
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | occupancy `u64`: bit `i` set when square `i` holds a piece (a1 = 0, b1 = 1, …, h8 = 63) |
//! | 8 | ⌈n/2⌉ | 4-bit piece codes of the `n` occupied squares in square order (a1 … h8): the `i`-th in the low nibble of byte `8 + i/2` when `i` is even, in the high nibble when odd; an unused last high nibble is 0 |
//! | 8 + ⌈n/2⌉ | 1 | state: bits 0–3 castling rights (1 White king side, 2 White queen side, 4 Black king side, 8 Black queen side: [`CastlingRights::bits`]), bit 4 side to move (1 = Black), bit 5 Chess960 ([`CastlingMode`]), bits 6–7 zero |
//! | +1 | 1 | White's castling rook files: low nibble king side, high nibble queen side (0 = a … 7 = h; 0 where the right is not held) |
//! | +2 | 1 | Black's castling rook files, the same way |
//! | +3 | 1 | en passant square 0–63 (set only when a pawn can take there, as [`Board::en_passant`]), 255 = none |
//! | +4 | 2 | halfmove clock `u16` |
//! | +6 | 2 | fullmove number `u16` |
//!
//! Piece code: `colour << 3 | type`, colour 0 White, 1 Black; type 0 pawn, 1 knight, 2 bishop,
//! 3 rook, 4 queen, 5 king (codes 6, 7, 14, 15 are invalid). Storing the rook of each castling
//! right (not just the right) is what makes Chess960 positions exact, and the Chess960 bit keeps
//! the board's castling mode (notation) through a round trip. The packing is canonical: a
//! position packs to exactly one byte string, and the reader rejects any other.
//!
//! A game of `p` plies from a 32-piece start takes `32 + 1 + 4p + 4` bytes, so `4 + 37/p`
//! bytes per position (about 4.3 for a 120-ply game).
//!
//! # The compact encoding (version 2)
//!
//! Version 1 ([`Encoding::Plain`]) is what `cutoff datagen` writes: whole games appended one
//! at a time, with fixed-size move records. Version 2 ([`Encoding::Compact`]) stores the same
//! games for archives (`cutoff datagen compact`, `scripts/pack-selfplay.sh`): compressed with
//! zstd, it takes about 40 % less space than version 1 compressed the same way. [`GameReader`]
//! reads both. A compact game is:
//!
//! | size | field |
//! |---|---|
//! | 16 + ⌈n/2⌉ | the start position, packed as in version 1 |
//! | 1 | the result, as in version 1 |
//! | varint | `p`, the number of moves |
//! | `p` | one byte per move: its index among the legal moves of its position, sorted by [`Move::raw`] |
//! | `p + 1` varints | the scores of the positions before each move, then of the final position |
//!
//! A **varint** is an unsigned LEB128 `u32` (7 bits a byte, low bits first, the high bit set on
//! every byte but the last) in its shortest form. A **score** is stored as
//! 0 for "no score", otherwise as `zigzag(score - prediction) + 1`, where the prediction is the
//! previous position's score negated (the side to move alternates), or 0 at the start of the
//! game or after a position without a score; `zigzag` maps 0, -1, 1, -2, … to 0, 1, 2, 3, ….
//! Consecutive search scores differ little, so most scores take one byte, and move indices
//! take one byte where version 1 spends two (a position has at most 218 legal moves; the
//! reader rejects a position with more than a byte can index). Sorting by the raw move makes
//! the index independent of the move generator's order. The encoding is canonical, as version
//! 1 is.
//!
//! A compact file decodes through the legal move generator: were a build's generator to miss
//! or invent a move, a version 2 file would decode as another legal game (or fail), where a
//! version 1 file names its moves outright. The generator is checked by every perft count of
//! the board crate's suites, and `scripts/pack-selfplay.sh` keeps the sha256 of the version 1
//! files in each manifest, so `cutoff datagen compact --plain` can prove a decoding.
//!
//! # Reading
//!
//! [`GameReader`] checks everything: the header, every field of the packed position (the
//! position must also be legal by [`Board::validate`]), the result, and every move, by replaying
//! the game on a [`Board`] (an illegal move is an error). A [`GameRecord`] is therefore always a
//! legal game. Corrupt input gives a [`FormatError`], never a panic.

use std::fmt;
use std::io::{self, Read, Write};

use cutoff_board::{
    Board, CastlingMode, CastlingRights, CastlingSide, Color, File, IllegalMoveError, Move, ParseFenError, Piece,
    PieceType, Rank, Square,
};

/// The first 8 bytes of a game file.
pub const MAGIC: [u8; 8] = *b"CUTOFFGR";

/// The format version of [`Encoding::Plain`], which `cutoff datagen` writes (bytes 8..12 of a
/// file).
pub const VERSION: u32 = 1;

/// The two encodings of a game file, told apart by the version in its header.
///
/// ```
/// use cutoff_datagen::format::Encoding;
/// assert_eq!(Encoding::Plain.version(), 1);
/// assert_eq!(Encoding::from_version(2), Some(Encoding::Compact));
/// assert_eq!(Encoding::from_version(3), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Version 1: 4 bytes a move, written by self-play (see the module documentation).
    #[default]
    Plain,
    /// Version 2: a byte a move and a varint a score, for archives.
    Compact,
}

impl Encoding {
    /// The version number in the file header.
    pub const fn version(self) -> u32 {
        match self {
            Encoding::Plain => 1,
            Encoding::Compact => 2,
        }
    }

    /// The encoding of header version `version`, if this build reads it.
    pub const fn from_version(version: u32) -> Option<Encoding> {
        match version {
            1 => Some(Encoding::Plain),
            2 => Some(Encoding::Compact),
            _ => None,
        }
    }

    /// The file header of this encoding: [`MAGIC`] and the version.
    pub fn header(self) -> [u8; HEADER_LEN] {
        let mut header = [0; HEADER_LEN];
        header[..8].copy_from_slice(&MAGIC);
        header[8..].copy_from_slice(&self.version().to_le_bytes());
        header
    }
}

/// The size of the file header: [`MAGIC`] and the `u32` version.
pub const HEADER_LEN: usize = 12;

/// The stored score that means "no score".
pub const NO_SCORE: i16 = i16::MIN;

/// The largest score magnitude stored: Cutoff's `MATE` (a mate at the root). Search scores are
/// clamped to `-SCORE_MAX..=SCORE_MAX`.
pub const SCORE_MAX: i16 = 32_000;

/// Training positions need `|score| < TRAINING_SCORE_LIMIT`: beyond it a score is a mate, a
/// tablebase win, or a position so lopsided that the exact number teaches nothing (Cutoff's
/// evaluation rarely passes 3000 outside of those). See [`is_training_position`].
pub const TRAINING_SCORE_LIMIT: i16 = 10_000;

/// The value a search score is stored as: clamped to ±[`SCORE_MAX`] (which keeps Cutoff's
/// mate scores, `±(32000 - plies)`, as they are).
///
/// ```
/// use cutoff_datagen::format::{SCORE_MAX, encode_score};
/// assert_eq!(encode_score(35), 35);
/// assert_eq!(encode_score(-31_999), -31_999); // mated in one ply
/// assert_eq!(encode_score(1_000_000), SCORE_MAX);
/// assert_eq!(encode_score(i32::MIN), -SCORE_MAX);
/// ```
pub fn encode_score(score: i32) -> i16 {
    score.clamp(-i32::from(SCORE_MAX), i32::from(SCORE_MAX)) as i16
}

/// How a game ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black won (`0-1`).
    BlackWin,
    /// Drawn (`1/2-1/2`).
    Draw,
    /// White won (`1-0`).
    WhiteWin,
}

impl GameResult {
    /// The stored byte: 0 Black won, 1 draw, 2 White won (White's score times two).
    pub const fn to_byte(self) -> u8 {
        self as u8
    }

    /// The result stored as `byte`, or `None` for a byte above 2.
    ///
    /// ```
    /// use cutoff_datagen::GameResult;
    /// assert_eq!(GameResult::from_byte(2), Some(GameResult::WhiteWin));
    /// assert_eq!(GameResult::from_byte(3), None);
    /// ```
    pub const fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }

    /// The result in which `winner` won (`None`: a draw).
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWin,
            Some(Color::Black) => GameResult::BlackWin,
            None => GameResult::Draw,
        }
    }

    /// The winner, or `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWin => Some(Color::White),
            GameResult::BlackWin => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The score of `color`: 1.0 for a win, 0.5 for a draw, 0.0 for a loss.
    ///
    /// ```
    /// use cutoff_board::Color;
    /// use cutoff_datagen::GameResult;
    /// assert_eq!(GameResult::BlackWin.score_for(Color::Black), 1.0);
    /// assert_eq!(GameResult::BlackWin.score_for(Color::White), 0.0);
    /// assert_eq!(GameResult::Draw.score_for(Color::White), 0.5);
    /// ```
    pub fn score_for(self, color: Color) -> f32 {
        match self.winner() {
            None => 0.5,
            Some(winner) if winner == color => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The PGN notation: `1-0`, `1/2-1/2` or `0-1`.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWin => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWin => "0-1",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// One move of a recorded game and the score of the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The search score of the position before the move, from the side to move's point of
    /// view (see [`encode_score`]), or `None`.
    pub score: Option<i16>,
}

/// A legal game: a start position, the moves played from it with their scores, the score of
/// the final position, and the result.
///
/// It can only be built move by move with [`GameRecord::push`], which rejects illegal moves,
/// so every record (read or built) replays legally.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_datagen::{GameRecord, GameResult};
/// let mut game = GameRecord::new(Board::default(), GameResult::Draw);
/// let e4 = Board::default().parse_uci("e2e4").unwrap();
/// game.push(e4, Some(30)).unwrap();
/// assert!(game.push(e4, Some(30)).is_err()); // Black to move: e2e4 is illegal now
/// assert_eq!(game.len(), 1);
/// assert_eq!(game.end_board().fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    start: Board,
    end: Board,
    result: GameResult,
    plies: Vec<Ply>,
    final_score: Option<i16>,
}

impl GameRecord {
    /// A game with no moves yet, starting at `start`.
    pub fn new(start: Board, result: GameResult) -> GameRecord {
        GameRecord { start, end: start, result, plies: Vec::new(), final_score: None }
    }

    /// Plays `mv` (which must be legal in [`end_board`](GameRecord::end_board)), recording the
    /// score of the position before it.
    pub fn push(&mut self, mv: Move, score: Option<i16>) -> Result<(), IllegalMoveError> {
        self.end.try_play(mv)?;
        self.plies.push(Ply { mv, score: score.map(|s| s.clamp(-SCORE_MAX, SCORE_MAX)) });
        Ok(())
    }

    /// Sets the result.
    pub fn set_result(&mut self, result: GameResult) {
        self.result = result;
    }

    /// Sets the score of the final position (the one after the last move).
    pub fn set_final_score(&mut self, score: Option<i16>) {
        self.final_score = score.map(|s| s.clamp(-SCORE_MAX, SCORE_MAX));
    }

    /// The start position.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The position after the last move.
    pub fn end_board(&self) -> &Board {
        &self.end
    }

    /// The result.
    pub fn result(&self) -> GameResult {
        self.result
    }

    /// The moves and their scores.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The score of the final position, if any.
    pub fn final_score(&self) -> Option<i16> {
        self.final_score
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// Whether the game has no moves (a single position, as from an EPD file).
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// Every position of the game, from the start to the final one, with the move played
    /// there (none for the final position) and its score: `len() + 1` items.
    pub fn replay(&self) -> Replay<'_> {
        Replay { record: self, board: self.start, next: 0 }
    }

    /// The positions to train on: [`replay`](GameRecord::replay) filtered by
    /// [`is_training_position`], each with its score and the game result from the side to
    /// move's point of view.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_datagen::{GameRecord, GameResult};
    /// let mut game = GameRecord::new(Board::default(), GameResult::WhiteWin);
    /// for (mv, score) in [("e2e4", 30), ("d7d5", -25), ("e4d5", 40), ("d8d5", -30)] {
    ///     let board = *game.end_board();
    ///     game.push(board.parse_uci(mv).unwrap(), Some(score)).unwrap();
    /// }
    /// // e4d5 and d8d5 are captures; the final position has no score but is kept (result only).
    /// let kept: Vec<_> = game.positions().map(|p| (p.score, p.result)).collect();
    /// assert_eq!(kept, [(Some(30), 1.0), (Some(-25), 0.0), (None, 1.0)]);
    /// ```
    pub fn positions(&self) -> impl Iterator<Item = TrainingPosition> + '_ {
        let result = self.result;
        self.replay().filter(|p| is_training_position(&p.board, p.mv, p.score)).map(move |p| TrainingPosition {
            score: p.score,
            result: result.score_for(p.board.side_to_move()),
            board: p.board,
        })
    }
}

/// A position of a recorded game, as [`GameRecord::replay`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedPosition {
    /// The position.
    pub board: Board,
    /// The move played in it, or `None` for the final position.
    pub mv: Option<Move>,
    /// Its score from the side to move's point of view, if recorded.
    pub score: Option<i16>,
}

/// The iterator of [`GameRecord::replay`].
#[derive(Clone, Debug)]
pub struct Replay<'a> {
    record: &'a GameRecord,
    board: Board,
    next: usize,
}

impl Iterator for Replay<'_> {
    type Item = RecordedPosition;

    fn next(&mut self) -> Option<RecordedPosition> {
        let plies = &self.record.plies;
        match self.next.cmp(&plies.len()) {
            std::cmp::Ordering::Less => {
                let ply = plies[self.next];
                let board = self.board;
                // Checked when the ply was pushed.
                self.board.play_unchecked(ply.mv);
                self.next += 1;
                Some(RecordedPosition { board, mv: Some(ply.mv), score: ply.score })
            }
            std::cmp::Ordering::Equal => {
                self.next += 1;
                Some(RecordedPosition { board: self.board, mv: None, score: self.record.final_score })
            }
            std::cmp::Ordering::Greater => None,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.record.plies.len() + 1).saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Replay<'_> {}

/// A position to train a network on: the board, its search score and the game result, both
/// from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingPosition {
    /// The position.
    pub board: Board,
    /// The search score in centipawns from the side to move's point of view, or `None` when the
    /// position has only a result (positions from a result-only EPD file; the final position of
    /// a self-play game). A trainer that blends score and result uses the result alone there.
    pub score: Option<i16>,
    /// The game result for the side to move: 1.0 win, 0.5 draw, 0.0 loss.
    pub result: f32,
}

/// Whether a recorded position is one to train on (the one filter of
/// [`GameRecord::positions`]). It is skipped when:
///
/// * the side to move is **in check** (the network evaluates quiet positions; the search
///   resolves checks);
/// * the move played there is **noisy** (a capture or a promotion): the position is not quiet,
///   so its static value and its search score disagree by the material about to change hands;
/// * it has **no move recorded and no legal move** (checkmate or stalemate at the end of a
///   game: the search never evaluates such a position);
/// * its score is **mate-like**: `|score| >= ` [`TRAINING_SCORE_LIMIT`] (10000);
/// * it has **a move but no score**: a game leaves a move's score out where it does not vouch
///   for the position (`cutoff datagen --score-opening` does so for an opening position whose
///   search chose a noisy move, where the random move played, which this filter sees, is
///   quiet).
///
/// A position without a move and without a score (the final position of a game, a result-only
/// EPD position) is kept: the trainer uses its result alone. No file written before the last
/// rule holds a move without a score (self-play scores every move, EPD positions have none), so
/// it leaves their training positions as they were.
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// use cutoff_datagen::format::is_training_position;
/// let board = Board::default();
/// let e4 = board.parse_uci("e2e4").ok();
/// assert!(is_training_position(&board, e4, Some(30)));
/// assert!(is_training_position(&board, None, None));
/// assert!(!is_training_position(&board, e4, None)); // a move whose score was left out
/// assert!(!is_training_position(&board, e4, Some(31_000)));
/// let mated = Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", CastlingMode::Standard).unwrap();
/// assert!(!is_training_position(&mated, None, None)); // in check (and mated)
/// ```
pub fn is_training_position(board: &Board, mv: Option<Move>, score: Option<i16>) -> bool {
    if board.in_check() {
        return false;
    }
    match (mv, score) {
        (Some(mv), _) if mv.is_noisy() => false,
        (Some(_), None) => false,
        (None, _) if !board.has_legal_moves() => false,
        (_, score) => score.is_none_or(|s| s.unsigned_abs() < TRAINING_SCORE_LIMIT.unsigned_abs()),
    }
}

/// Why a game file could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum FormatError {
    /// Reading failed.
    Io(io::Error),
    /// The file does not start with [`MAGIC`]: not a game file.
    BadMagic {
        /// The first 8 bytes.
        found: [u8; 8],
    },
    /// The file is of another format version.
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// The input ends inside the 12-byte header.
    TruncatedHeader {
        /// The bytes there were.
        len: usize,
    },
    /// The input ends inside a game (a writer stopped in the middle of it).
    Truncated {
        /// The game's index in the file, from 0.
        game: u64,
    },
    /// A piece code that is no piece (6, 7, 14 or 15).
    BadPieceCode {
        /// The game's index in the file, from 0.
        game: u64,
        /// The square of the piece.
        square: Square,
        /// The code.
        code: u8,
    },
    /// A field of the packed position holds a value it cannot (reserved bits set, an en
    /// passant square out of range, a rook file for a right that is not held, ...), or the
    /// position is not stored the one way this format stores it.
    BadField {
        /// The game's index in the file, from 0.
        game: u64,
        /// Which field.
        field: &'static str,
    },
    /// The packed position is not a legal chess position.
    InvalidPosition {
        /// The game's index in the file, from 0.
        game: u64,
        /// What is wrong with it.
        source: ParseFenError,
    },
    /// A result byte above 2.
    BadResult {
        /// The game's index in the file, from 0.
        game: u64,
        /// The byte.
        found: u8,
    },
    /// A move that encodes no move or is illegal in the position reached by the moves before.
    IllegalMove {
        /// The game's index in the file, from 0.
        game: u64,
        /// The move's index in the game, from 0.
        ply: usize,
        /// The stored 16 bits.
        raw: u16,
    },
    /// A compact game's move index at or beyond the number of legal moves of its position.
    BadMoveIndex {
        /// The game's index in the file, from 0.
        game: u64,
        /// The move's index in the game, from 0.
        ply: usize,
        /// The stored index.
        index: u8,
        /// The number of legal moves there.
        legal: usize,
    },
    /// A compact game's varint that is not in its shortest form or does not fit a `u32`.
    BadVarint {
        /// The game's index in the file, from 0.
        game: u64,
    },
    /// A score beyond ±[`SCORE_MAX`] that is not [`NO_SCORE`].
    BadScore {
        /// The game's index in the file, from 0.
        game: u64,
        /// The move's index in the game, from 0 (the game's length for the final position).
        ply: usize,
        /// The stored value.
        value: i16,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Io(e) => write!(f, "read error: {e}"),
            FormatError::BadMagic { found } => {
                write!(f, "not a Cutoff game file: it starts with {found:02x?}, not \"CUTOFFGR\"")
            }
            FormatError::UnsupportedVersion { found } => {
                write!(f, "game file format version {found} is not supported (this build reads versions 1 and 2)")
            }
            FormatError::TruncatedHeader { len } => {
                write!(f, "truncated game file: {len} bytes, shorter than the {HEADER_LEN}-byte header")
            }
            FormatError::Truncated { game } => write!(f, "game {game}: truncated (the file ends inside the game)"),
            FormatError::BadPieceCode { game, square, code } => {
                write!(f, "game {game}: bad piece code {code} on {square}")
            }
            FormatError::BadField { game, field } => write!(f, "game {game}: bad packed position: {field}"),
            FormatError::InvalidPosition { game, source } => write!(f, "game {game}: invalid start position: {source}"),
            FormatError::BadResult { game, found } => write!(f, "game {game}: bad result byte {found}"),
            FormatError::IllegalMove { game, ply, raw } => {
                write!(f, "game {game}: illegal move {raw:#06x} at ply {ply}")
            }
            FormatError::BadMoveIndex { game, ply, index, legal } => {
                write!(f, "game {game}: move index {index} at ply {ply}, where there are {legal} legal moves")
            }
            FormatError::BadVarint { game } => {
                write!(f, "game {game}: bad varint (not in its shortest form, or beyond 32 bits)")
            }
            FormatError::BadScore { game, ply, value } => write!(f, "game {game}: bad score {value} at ply {ply}"),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormatError::Io(e) => Some(e),
            FormatError::InvalidPosition { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<io::Error> for FormatError {
    fn from(e: io::Error) -> FormatError {
        FormatError::Io(e)
    }
}

/// The 4-bit code of a piece: colour << 3 | type.
fn piece_code(piece: Piece) -> u8 {
    (piece.color() as u8) << 3 | piece.kind() as u8
}

fn piece_from_code(code: u8) -> Option<Piece> {
    let kind = PieceType::try_from_index(usize::from(code & 7))?;
    let color = if code & 8 == 0 { Color::White } else { Color::Black };
    Some(Piece::new(color, kind))
}

const STATE_BLACK: u8 = 1 << 4;
const STATE_CHESS960: u8 = 1 << 5;
const NO_EN_PASSANT: u8 = 255;

/// Appends the packed form of `board` to `out` (see the module documentation).
fn pack_position(board: &Board, out: &mut Vec<u8>) {
    let occupied = board.occupied();
    out.extend_from_slice(&occupied.0.to_le_bytes());
    let mut pending: Option<u8> = None;
    for sq in occupied {
        let code = board.piece_on(sq).map_or(0, piece_code);
        match pending.take() {
            None => pending = Some(code),
            Some(low) => out.push(low | code << 4),
        }
    }
    if let Some(low) = pending {
        out.push(low);
    }
    let mut state = board.castling_rights().bits();
    if board.side_to_move() == Color::Black {
        state |= STATE_BLACK;
    }
    if board.is_chess960() {
        state |= STATE_CHESS960;
    }
    out.push(state);
    for color in Color::ALL {
        let file = |side| board.castling_rook(color, side).map_or(0, |sq: Square| sq.file() as u8);
        out.push(file(CastlingSide::King) | file(CastlingSide::Queen) << 4);
    }
    out.push(board.en_passant().map_or(NO_EN_PASSANT, |sq| sq as u8));
    out.extend_from_slice(&board.halfmove_clock().to_le_bytes());
    out.extend_from_slice(&board.fullmove_number().to_le_bytes());
}

/// Writes games to `W`: the header at [`GameWriter::new`], then one game per
/// [`write_game`](GameWriter::write_game), each with a single `write_all`.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_datagen::{GameReader, GameRecord, GameResult, GameWriter};
/// let mut game = GameRecord::new(Board::default(), GameResult::Draw);
/// game.push(Board::default().parse_uci("g1f3").unwrap(), Some(20)).unwrap();
/// let mut writer = GameWriter::new(Vec::new()).unwrap();
/// writer.write_game(&game).unwrap();
/// let bytes = writer.into_inner();
/// assert_eq!(bytes.len(), 12 + 32 + 1 + 4 + 4);
/// let read: Vec<_> = GameReader::new(&bytes[..]).unwrap().collect::<Result<_, _>>().unwrap();
/// assert_eq!(read, [game]);
/// ```
#[derive(Debug)]
pub struct GameWriter<W: Write> {
    inner: W,
    encoding: Encoding,
    games: u64,
    buffer: Vec<u8>,
}

impl<W: Write> GameWriter<W> {
    /// A writer that starts a new file in [`Encoding::Plain`]: writes the header.
    pub fn new(inner: W) -> io::Result<GameWriter<W>> {
        GameWriter::with_encoding(inner, Encoding::Plain)
    }

    /// A writer that starts a new file in `encoding`: writes the header.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_datagen::format::Encoding;
    /// use cutoff_datagen::{GameReader, GameRecord, GameResult, GameWriter};
    /// let mut game = GameRecord::new(Board::default(), GameResult::Draw);
    /// for (mv, score) in [("g1f3", 20), ("g8f6", -18), ("c2c4", 25)] {
    ///     let board = *game.end_board();
    ///     game.push(board.parse_uci(mv).unwrap(), Some(score)).unwrap();
    /// }
    /// let mut writer = GameWriter::with_encoding(Vec::new(), Encoding::Compact).unwrap();
    /// writer.write_game(&game).unwrap();
    /// let bytes = writer.into_inner();
    /// // The header, the start position and result, the length, 3 moves and 4 scores (a byte each:
    /// // 20, then -18 predicted -20, 25 predicted 18, and none).
    /// assert_eq!(bytes.len(), 12 + 33 + 1 + 3 + 4);
    /// let reader = GameReader::new(&bytes[..]).unwrap();
    /// assert_eq!(reader.encoding(), Encoding::Compact);
    /// assert_eq!(reader.collect::<Result<Vec<_>, _>>().unwrap(), [game]);
    /// ```
    pub fn with_encoding(mut inner: W, encoding: Encoding) -> io::Result<GameWriter<W>> {
        inner.write_all(&encoding.header())?;
        Ok(GameWriter { inner, encoding, games: 0, buffer: Vec::new() })
    }

    /// A writer that appends to a file that already has its header (and complete games), in
    /// the file's `encoding` ([`GameReader::encoding`]).
    pub fn append(inner: W, encoding: Encoding) -> GameWriter<W> {
        GameWriter { inner, encoding, games: 0, buffer: Vec::new() }
    }

    /// The encoding this writer writes.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Appends one game (one `write_all` of its bytes).
    pub fn write_game(&mut self, game: &GameRecord) -> io::Result<()> {
        self.buffer.clear();
        encode_game_as(game, self.encoding, &mut self.buffer);
        self.inner.write_all(&self.buffer)?;
        self.games += 1;
        Ok(())
    }

    /// Flushes the inner writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }

    /// The number of games written by this writer.
    pub fn games_written(&self) -> u64 {
        self.games
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// Returns the inner writer (not flushed: call [`flush`](GameWriter::flush) first when it
    /// buffers).
    pub fn into_inner(self) -> W {
        self.inner
    }
}

/// Appends the bytes of `game` in `encoding` to `out`.
pub fn encode_game_as(game: &GameRecord, encoding: Encoding, out: &mut Vec<u8>) {
    match encoding {
        Encoding::Plain => encode_game(game, out),
        Encoding::Compact => encode_game_compact(game, out),
    }
}

/// The legal moves of `board` in the compact encoding's order: sorted by [`Move::raw`].
fn sorted_legal_moves(board: &Board) -> cutoff_board::MoveList {
    let mut moves = board.legal_moves();
    moves.sort_unstable_by_key(|mv| mv.raw());
    moves
}

/// Appends `value` as a varint.
fn put_varint(mut value: u32, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value & 0x7F) as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The varint of a compact score given the previous position's score.
fn score_code(score: Option<i16>, previous: Option<i16>) -> u32 {
    let Some(score) = score else { return 0 };
    let delta = i32::from(score) + previous.map_or(0, i32::from);
    ((delta << 1) ^ (delta >> 31)) as u32 + 1
}

/// The score of a compact code given the previous position's score (`None` for code 0). Any
/// `u32` code decodes without overflow; a score beyond ±[`SCORE_MAX`] is the caller's to
/// reject.
fn score_from_code(code: u32, previous: Option<i16>) -> Option<i64> {
    let zigzag = i64::from(code.checked_sub(1)?);
    let delta = (zigzag >> 1) ^ -(zigzag & 1);
    Some(delta - previous.map_or(0, i64::from))
}

/// The compact encoding of `game` (see the module documentation).
fn encode_game_compact(game: &GameRecord, out: &mut Vec<u8>) {
    pack_position(&game.start, out);
    out.push(game.result.to_byte());
    put_varint(u32::try_from(game.plies.len()).expect("fewer than 2^32 moves"), out);
    let mut board = game.start;
    for ply in &game.plies {
        let moves = sorted_legal_moves(&board);
        // A record holds only legal moves (`push` checks them), and a position has at most 218.
        let index = moves.binary_search_by_key(&ply.mv.raw(), |mv| mv.raw()).expect("a recorded move is legal");
        out.push(u8::try_from(index).expect("a move list holds at most 256 moves"));
        board.play_unchecked(ply.mv);
    }
    let mut previous = None;
    for score in game.plies.iter().map(|ply| ply.score).chain([game.final_score]) {
        put_varint(score_code(score, previous), out);
        previous = score;
    }
}

/// Appends the bytes of `game` in [`Encoding::Plain`] to `out`: the packed start position, the
/// result, the plies and the terminator.
pub fn encode_game(game: &GameRecord, out: &mut Vec<u8>) {
    pack_position(&game.start, out);
    out.push(game.result.to_byte());
    for ply in &game.plies {
        out.extend_from_slice(&ply.mv.raw().to_le_bytes());
        out.extend_from_slice(&ply.score.unwrap_or(NO_SCORE).to_le_bytes());
    }
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&game.final_score.unwrap_or(NO_SCORE).to_le_bytes());
}

/// Reads games: an iterator of `Result<GameRecord, FormatError>`, one item per game. The
/// header is checked by [`GameReader::new`]; every game is checked in full (see the module
/// documentation). After the first error the iterator ends (the rest of the input cannot be
/// found again).
///
/// A file that ends inside a game gives [`FormatError::Truncated`];
/// [`complete_len`](GameReader::complete_len) is then the length of its complete part.
#[derive(Debug)]
pub struct GameReader<R: Read> {
    inner: R,
    encoding: Encoding,
    offset: u64,
    complete: u64,
    games: u64,
    done: bool,
}

impl<R: Read> GameReader<R> {
    /// Reads and checks the header.
    pub fn new(mut inner: R) -> Result<GameReader<R>, FormatError> {
        let mut header = [0; HEADER_LEN];
        let len = read_full(&mut inner, &mut header)?;
        if len >= 8 && header[..8] != MAGIC {
            let mut found = [0; 8];
            found.copy_from_slice(&header[..8]);
            return Err(FormatError::BadMagic { found });
        }
        if len < HEADER_LEN {
            if header[..len.min(8)] != MAGIC[..len.min(8)] {
                let mut found = [0; 8];
                found[..len.min(8)].copy_from_slice(&header[..len.min(8)]);
                return Err(FormatError::BadMagic { found });
            }
            return Err(FormatError::TruncatedHeader { len });
        }
        let version = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
        let encoding = Encoding::from_version(version).ok_or(FormatError::UnsupportedVersion { found: version })?;
        let offset = HEADER_LEN as u64;
        Ok(GameReader { inner, encoding, offset, complete: offset, games: 0, done: false })
    }

    /// The file's encoding, from its header.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The number of complete games read so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// The number of bytes up to the end of the last complete game (or of the header).
    pub fn complete_len(&self) -> u64 {
        self.complete
    }

    /// Fills `buf`, or fails with `Truncated`.
    fn read_exact_in_game(&mut self, buf: &mut [u8]) -> Result<(), FormatError> {
        let n = read_full(&mut self.inner, buf)?;
        self.offset += n as u64;
        if n < buf.len() { Err(FormatError::Truncated { game: self.games }) } else { Ok(()) }
    }

    fn read_u16(&mut self) -> Result<u16, FormatError> {
        let mut b = [0; 2];
        self.read_exact_in_game(&mut b)?;
        Ok(u16::from_le_bytes(b))
    }

    fn read_score(&mut self, ply: usize) -> Result<Option<i16>, FormatError> {
        let value = self.read_u16()? as i16;
        if value == NO_SCORE {
            Ok(None)
        } else if value.unsigned_abs() > SCORE_MAX.unsigned_abs() {
            Err(FormatError::BadScore { game: self.games, ply, value })
        } else {
            Ok(Some(value))
        }
    }

    /// Reads a varint.
    fn read_varint(&mut self) -> Result<u32, FormatError> {
        let mut value = 0u32;
        for i in 0..5 {
            let mut b = [0];
            self.read_exact_in_game(&mut b)?;
            let bits = u32::from(b[0] & 0x7F);
            // The fifth byte holds the top 4 bits; a zero last byte (after the first) means the
            // number had a shorter form.
            if (i == 4 && bits > 0x0F) || (i > 0 && b[0] == 0) {
                break;
            }
            value |= bits << (7 * i);
            if b[0] & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(FormatError::BadVarint { game: self.games })
    }

    /// Reads the moves and scores of a compact game into `record` (which holds its start).
    fn read_compact_plies(&mut self, record: &mut GameRecord) -> Result<(), FormatError> {
        let game = self.games;
        let plies = self.read_varint()? as usize;
        let mut board = record.start;
        // One byte a move; read them in pieces so that a corrupt length cannot ask for memory
        // the input does not back.
        let mut moves = Vec::new();
        let mut chunk = [0u8; 256];
        while moves.len() < plies {
            let n = (plies - moves.len()).min(chunk.len());
            self.read_exact_in_game(&mut chunk[..n])?;
            for &index in &chunk[..n] {
                let ply = moves.len();
                // A position that `validate` accepts but no game reaches (a king and 15
                // queens) might have more moves than a move list holds, or a byte indexes.
                if board.count_moves() > 256 {
                    return Err(FormatError::BadField { game, field: "a position with more than 256 legal moves" });
                }
                let legal = sorted_legal_moves(&board);
                let mv = *legal.get(usize::from(index)).ok_or(FormatError::BadMoveIndex {
                    game,
                    ply,
                    index,
                    legal: legal.len(),
                })?;
                board.play_unchecked(mv);
                moves.push(mv);
            }
        }
        let mut previous = None;
        for ply in 0..=plies {
            let code = self.read_varint()?;
            let score = match score_from_code(code, previous) {
                None => None,
                Some(value) if value.unsigned_abs() <= u64::from(SCORE_MAX.unsigned_abs()) => Some(value as i16),
                Some(value) => {
                    // Reported at the nearest `i16` that is not NO_SCORE.
                    let value = value.clamp(i64::from(i16::MIN) + 1, i64::from(i16::MAX)) as i16;
                    return Err(FormatError::BadScore { game, ply, value });
                }
            };
            match moves.get(ply) {
                // Legal: taken from the legal moves of its position.
                Some(&mv) => {
                    record.push(mv, score).map_err(|_| FormatError::IllegalMove { game, ply, raw: mv.raw() })?
                }
                None => record.final_score = score,
            }
            previous = score;
        }
        Ok(())
    }

    /// Reads one game; `Ok(None)` at a clean end of the input.
    fn read_game(&mut self) -> Result<Option<GameRecord>, FormatError> {
        let game = self.games;
        let mut occupancy = [0; 8];
        let n = read_full(&mut self.inner, &mut occupancy)?;
        self.offset += n as u64;
        if n == 0 {
            return Ok(None);
        }
        if n < 8 {
            return Err(FormatError::Truncated { game });
        }
        let occupancy = u64::from_le_bytes(occupancy);
        let pieces = occupancy.count_ones() as usize;
        if pieces > 32 {
            return Err(FormatError::BadField { game, field: "occupancy: more than 32 pieces" });
        }
        // The piece codes, the 8 bytes of state and clocks, and the result.
        let mut rest = [0u8; 16 + 8 + 1];
        let len = pieces.div_ceil(2) + 8 + 1;
        self.read_exact_in_game(&mut rest[..len])?;
        let mut packed = Vec::with_capacity(8 + len);
        packed.extend_from_slice(&occupancy.to_le_bytes());
        packed.extend_from_slice(&rest[..len - 1]);
        let start = unpack_position(&packed, game)?;
        let result_byte = rest[len - 1];
        let result = GameResult::from_byte(result_byte).ok_or(FormatError::BadResult { game, found: result_byte })?;
        let mut record = GameRecord::new(start, result);
        if self.encoding == Encoding::Compact {
            self.read_compact_plies(&mut record)?;
            return Ok(Some(record));
        }
        loop {
            let ply = record.len();
            let raw = self.read_u16()?;
            let score = self.read_score(ply)?;
            if raw == 0 {
                record.final_score = score;
                break;
            }
            let mv = Move::from_raw(raw).ok_or(FormatError::IllegalMove { game, ply, raw })?;
            record.push(mv, score).map_err(|_| FormatError::IllegalMove { game, ply, raw })?;
        }
        Ok(Some(record))
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<GameRecord, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_game() {
            Ok(Some(game)) => {
                self.games += 1;
                self.complete = self.offset;
                Some(Ok(game))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

impl<R: Read> std::iter::FusedIterator for GameReader<R> {}

/// Reads until `buf` is full or the input ends; returns the number of bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Decodes a packed position (`packed` is exactly its bytes): checks every field, builds the
/// board through FEN (which validates it), and checks that the board packs back to the same
/// bytes.
fn unpack_position(packed: &[u8], game: u64) -> Result<Board, FormatError> {
    let bad = |field| FormatError::BadField { game, field };
    let occupancy = u64::from_le_bytes(packed[..8].try_into().map_err(|_| bad("length"))?);
    let pieces = occupancy.count_ones() as usize;
    let codes = &packed[8..8 + pieces.div_ceil(2)];
    let tail = &packed[8 + pieces.div_ceil(2)..];
    let [state, white_rooks, black_rooks, en_passant, h0, h1, f0, f1] =
        <[u8; 8]>::try_from(tail).map_err(|_| bad("length"))?;

    let mut board_pieces: [Option<Piece>; 64] = [None; 64];
    let mut occupied = occupancy;
    let mut i = 0;
    while occupied != 0 {
        let index = occupied.trailing_zeros() as usize;
        occupied &= occupied - 1;
        let byte = codes[i / 2];
        let code = if i % 2 == 0 { byte & 15 } else { byte >> 4 };
        let square = Square::index_const(index);
        board_pieces[index] = Some(piece_from_code(code).ok_or(FormatError::BadPieceCode { game, square, code })?);
        i += 1;
    }
    if pieces % 2 == 1 && codes[pieces / 2] >> 4 != 0 {
        return Err(bad("piece codes: the unused last nibble is not zero"));
    }
    if state & 0b1100_0000 != 0 {
        return Err(bad("state: reserved bits set"));
    }
    let rights = CastlingRights::from_bits_truncate(state & 15);
    let mode = CastlingMode::from_chess960(state & STATE_CHESS960 != 0);

    let mut fen = String::with_capacity(100);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board_pieces[Square::new(file, *rank).index()] {
                Some(p) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(p.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if *rank != Rank::First {
            fen.push('/');
        }
    }
    fen.push_str(if state & STATE_BLACK != 0 { " b " } else { " w " });
    let mut any_right = false;
    for (color, files) in [(Color::White, white_rooks), (Color::Black, black_rooks)] {
        for side in CastlingSide::ALL {
            let file = if side == CastlingSide::King { files & 15 } else { files >> 4 };
            if !rights.contains(CastlingRights::new(color, side)) {
                if file != 0 {
                    return Err(bad("castling rook file for a right that is not held"));
                }
                continue;
            }
            let file = File::try_from_index(usize::from(file)).ok_or(bad("castling rook file"))?;
            let letter = file.to_char();
            fen.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
            any_right = true;
        }
    }
    if !any_right {
        fen.push('-');
    }
    fen.push(' ');
    if en_passant == NO_EN_PASSANT {
        fen.push('-');
    } else {
        let sq = Square::try_from_index(usize::from(en_passant)).ok_or(bad("en passant square"))?;
        fen.push_str(&sq.to_string());
    }
    let halfmove = u16::from_le_bytes([h0, h1]);
    let fullmove = u16::from_le_bytes([f0, f1]);
    fen.push_str(&format!(" {halfmove} {fullmove}"));

    let board = Board::from_fen(&fen, mode).map_err(|source| FormatError::InvalidPosition { game, source })?;
    let mut repacked = Vec::with_capacity(packed.len());
    pack_position(&board, &mut repacked);
    if repacked != packed {
        // Every field was in range and the position is legal, but it does not read back the
        // same: an en passant square where no pawn can take, a fullmove number of 0, a
        // castling right whose rook file puts it on the other side of the king, ...
        return Err(bad("not the canonical packing of its position (castling, en passant or clocks)"));
    }
    Ok(board)
}

/// What a game file holds: see [`file_stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileStats {
    /// Games.
    pub games: u64,
    /// Moves (recorded plies).
    pub moves: u64,
    /// Positions that pass [`is_training_position`].
    pub training_positions: u64,
    /// Positions with a score (moves and final positions).
    pub scored_positions: u64,
    /// Games won by White.
    pub white_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won by Black.
    pub black_wins: u64,
    /// Bytes, header included.
    pub bytes: u64,
    /// The file's encoding.
    pub encoding: Encoding,
}

impl FileStats {
    /// Bytes per recorded position (every move, and the final position of every game).
    pub fn bytes_per_position(&self) -> f64 {
        self.bytes as f64 / (self.moves + self.games).max(1) as f64
    }
}

/// Reads a whole game file (checking every game) and counts what it holds.
pub fn file_stats<R: Read>(input: R) -> Result<FileStats, FormatError> {
    let mut reader = GameReader::new(input)?;
    let mut stats = FileStats::default();
    for game in reader.by_ref() {
        let game = game?;
        stats.games += 1;
        stats.moves += game.len() as u64;
        stats.training_positions += game.positions().count() as u64;
        stats.scored_positions +=
            game.plies().iter().filter(|p| p.score.is_some()).count() as u64 + u64::from(game.final_score().is_some());
        match game.result() {
            GameResult::WhiteWin => stats.white_wins += 1,
            GameResult::Draw => stats.draws += 1,
            GameResult::BlackWin => stats.black_wins += 1,
        }
    }
    stats.bytes = reader.complete_len();
    stats.encoding = reader.encoding();
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for piece in Piece::ALL {
            assert_eq!(piece_from_code(piece_code(piece)), Some(piece));
        }
        for code in [6, 7, 14, 15] {
            assert_eq!(piece_from_code(code), None);
        }
    }

    #[test]
    fn every_score_round_trips_through_its_compact_code() {
        let scores = (-SCORE_MAX..=SCORE_MAX).map(Some).chain([None]);
        for previous in [None, Some(0), Some(1), Some(-700), Some(SCORE_MAX), Some(-SCORE_MAX)] {
            for score in scores.clone() {
                let code = score_code(score, previous);
                assert_eq!(code == 0, score.is_none());
                // At most 3 varint bytes.
                assert!(code < 1 << 21, "{score:?} after {previous:?}");
                assert_eq!(score_from_code(code, previous), score.map(i64::from), "{score:?} after {previous:?}");
            }
        }
        // A score near the prediction takes one byte.
        assert!(score_code(Some(-27), Some(30)) < 0x80);
        // Every code decodes without overflow, whatever the previous score.
        for code in [u32::MAX, u32::MAX - 1, 1 << 31, (1 << 31) + 1] {
            for previous in [Some(SCORE_MAX), Some(-SCORE_MAX), None] {
                assert!(score_from_code(code, previous).unwrap().unsigned_abs() > 1 << 29);
            }
        }
    }

    #[test]
    fn start_position_packs_to_32_bytes() {
        let mut out = Vec::new();
        pack_position(&Board::default(), &mut out);
        assert_eq!(out.len(), 32);
        assert_eq!(&out[..8], &0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        // a1 white rook (3), b1 white knight (1): one byte 0x13.
        assert_eq!(out[8], 0x13);
        // State: all four rights, White to move, standard chess; rooks on h (7) and a (0).
        assert_eq!(&out[24..], &[0x0F, 0x07, 0x07, 255, 0, 0, 1, 0]);
        assert_eq!(unpack_position(&out, 0).unwrap(), Board::default());
    }
}
