//! FEN parsing and printing (X-FEN and Shredder-FEN castling), and position validation.

use core::fmt;

use crate::attacks;
use crate::zobrist;
use crate::{Bitboard, Board, CastlingMode, CastlingRights, CastlingSide, Color, File, Piece, PieceType, Rank, Square};

/// Why a FEN string could not be read. Each variant names the FEN field at fault.
///
/// ```
/// use cutoff_board::{Board, CastlingMode, ParseFenError, PositionError};
/// assert_eq!(Board::from_fen("", CastlingMode::Standard), Err(ParseFenError::Empty));
/// assert_eq!(
///     Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", CastlingMode::Standard),
///     Err(ParseFenError::SideToMove)
/// );
/// assert_eq!(
///     Board::from_fen("8/8/8/8/8/8/8/8 w - - 0 1", CastlingMode::Standard),
///     Err(ParseFenError::Position(PositionError::MissingKing(cutoff_board::Color::White)))
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// The string is empty or only white space.
    Empty,
    /// Piece placement: the number of ranks (separated by `/`) is not 8.
    RankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// Piece placement: a rank does not describe exactly 8 squares.
    RankLength {
        /// The offending rank.
        rank: Rank,
    },
    /// Piece placement: a character that is neither a piece letter nor a digit 1–8.
    PieceChar {
        /// The offending character.
        found: char,
    },
    /// Side to move: not `w` or `b`.
    SideToMove,
    /// Castling: an unknown letter, a letter given twice, or a right for which there is no
    /// suitable rook.
    Castling {
        /// The offending character.
        found: char,
    },
    /// En passant: not `-` or a square on the third or sixth rank.
    EnPassant,
    /// Halfmove clock: not a number from 0 to 65535.
    HalfmoveClock,
    /// Fullmove number: not a number from 0 to 65535.
    FullmoveNumber,
    /// More than six fields.
    TooManyFields,
    /// The fields read fine but describe an impossible position.
    Position(PositionError),
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::Empty => f.write_str("empty FEN"),
            ParseFenError::RankCount { found } => {
                write!(f, "FEN piece placement: expected 8 ranks separated by '/', found {found}")
            }
            ParseFenError::RankLength { rank } => {
                write!(f, "FEN piece placement: rank {rank} does not describe exactly 8 squares")
            }
            ParseFenError::PieceChar { found } => {
                write!(f, "FEN piece placement: '{found}' is not a piece letter (PNBRQKpnbrqk) or a digit 1-8")
            }
            ParseFenError::SideToMove => f.write_str("FEN side to move: expected 'w' or 'b'"),
            ParseFenError::Castling { found } => write!(
                f,
                "FEN castling: '{found}' is not valid here (expected '-', KQkq, or rook files A-H/a-h, each once, with a rook in place)"
            ),
            ParseFenError::EnPassant => {
                f.write_str("FEN en passant: expected '-' or a square on rank 3 (Black to move) or 6 (White to move)")
            }
            ParseFenError::HalfmoveClock => f.write_str("FEN halfmove clock: expected a number from 0 to 65535"),
            ParseFenError::FullmoveNumber => f.write_str("FEN fullmove number: expected a number from 0 to 65535"),
            ParseFenError::TooManyFields => f.write_str("FEN has more than 6 fields"),
            ParseFenError::Position(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl core::error::Error for ParseFenError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ParseFenError::Position(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for ParseFenError {
    fn from(e: PositionError) -> ParseFenError {
        ParseFenError::Position(e)
    }
}

/// Why a position is impossible (reported by [`Board::validate`]).
///
/// ```
/// use cutoff_board::{Board, CastlingMode, Color, ParseFenError, PositionError};
/// let error = |fen: &str| match Board::from_fen(fen, CastlingMode::Standard) {
///     Err(ParseFenError::Position(e)) => Some(e),
///     _ => None,
/// };
/// assert_eq!(error("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"), Some(PositionError::TooManyKings(Color::White)));
/// assert_eq!(error("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"), Some(PositionError::PawnOnBackRank));
/// // White to move, but Black's king is attacked by the queen.
/// assert_eq!(error("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"), Some(PositionError::OppositeCheck));
/// // Two knights can never give check at once.
/// assert_eq!(error("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1"), Some(PositionError::ImpossibleCheck));
/// // Standard chess needs the king on e1 to castle.
/// assert_eq!(error("4k3/8/8/8/8/8/8/3K3R w K - 0 1"), Some(PositionError::CastlingWithoutKingOrRook));
/// // No black pawn stands on e5, so none can just have passed e6.
/// assert_eq!(error("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"), Some(PositionError::ImpossibleEnPassant));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A side has more than 16 pieces or more than 8 pawns.
    TooManyPieces(Color),
    /// A pawn stands on the first or last rank.
    PawnOnBackRank,
    /// The side not to move is in check.
    OppositeCheck,
    /// The side to move is in check by more than two pieces, or by two pawns or two knights.
    ImpossibleCheck,
    /// A castling right whose king or rook is not on its home rank where the right needs it.
    CastlingWithoutKingOrRook,
    /// The en passant square does not follow a double pawn push.
    ImpossibleEnPassant,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing(c) => write!(f, "{c} has no king"),
            PositionError::TooManyKings(c) => write!(f, "{c} has more than one king"),
            PositionError::TooManyPieces(c) => {
                write!(f, "{c} has more than 16 pieces or more than 8 pawns")
            }
            PositionError::PawnOnBackRank => f.write_str("a pawn stands on the first or last rank"),
            PositionError::OppositeCheck => f.write_str("the side not to move is in check"),
            PositionError::ImpossibleCheck => f.write_str("the side to move is in an impossible check"),
            PositionError::CastlingWithoutKingOrRook => {
                f.write_str("a castling right has no king or rook on its home square")
            }
            PositionError::ImpossibleEnPassant => {
                f.write_str("the en passant square does not follow a double pawn push")
            }
        }
    }
}

impl core::error::Error for PositionError {}

impl Board {
    /// Reads a position from FEN, with the castling rules and notation of `mode` (standard
    /// chess or Chess960). [`str::parse`] (`FromStr`) reads standard chess.
    ///
    /// Castling accepts `KQkq` (X-FEN: the outermost rook on that side) and rook files
    /// (Shredder-FEN, `HAha`) in both modes; in standard mode the king must be on the
    /// e-file and the rooks in the corners. Missing trailing fields default to `- - 0 1`
    /// (so 4-field EPD positions read too). The position is checked with
    /// [`Board::validate`].
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let b = Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960).unwrap();
    /// assert_eq!(b.legal_moves().len(), 21);
    /// assert_eq!(b.fen().to_string(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    /// ```
    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Board, ParseFenError> {
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().ok_or(ParseFenError::Empty)?;
        let mut board = Board::empty(mode.is_chess960());

        let ranks: arrayvec::ArrayVec<&str, 8> = {
            let mut v = arrayvec::ArrayVec::new();
            let mut count = 0;
            for r in placement.split('/') {
                count += 1;
                if v.try_push(r).is_err() {
                    return Err(ParseFenError::RankCount { found: placement.split('/').count() });
                }
            }
            if count != 8 {
                return Err(ParseFenError::RankCount { found: count });
            }
            v
        };
        for (i, text) in ranks.iter().enumerate() {
            let rank = Rank::ALL[7 - i];
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_char(c) {
                    if file >= 8 {
                        return Err(ParseFenError::RankLength { rank });
                    }
                    board.put(piece, Square::new(File::ALL[file], rank));
                    file += 1;
                } else {
                    return Err(ParseFenError::PieceChar { found: c });
                }
                if file > 8 {
                    return Err(ParseFenError::RankLength { rank });
                }
            }
            if file != 8 {
                return Err(ParseFenError::RankLength { rank });
            }
        }

        board.side_to_move = match fields.next() {
            None | Some("w") | Some("W") => Color::White,
            Some("b") | Some("B") => Color::Black,
            Some(_) => return Err(ParseFenError::SideToMove),
        };
        if board.side_to_move == Color::Black {
            board.key ^= zobrist::side();
        }

        if let Some(castling) = fields.next() {
            parse_castling(&mut board, castling)?;
        }

        let ep_text = fields.next();
        let halfmove = match fields.next() {
            None => 0,
            Some(t) => t.parse::<u16>().map_err(|_| ParseFenError::HalfmoveClock)?,
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(t) => t.parse::<u16>().map_err(|_| ParseFenError::FullmoveNumber)?.max(1),
        };
        if fields.next().is_some() {
            return Err(ParseFenError::TooManyFields);
        }
        board.halfmove_clock = halfmove;
        board.fullmove_number = fullmove;

        board.validate_without_en_passant()?;

        if let Some(t) = ep_text.filter(|t| *t != "-") {
            let sq: Square = t.parse().map_err(|_| ParseFenError::EnPassant)?;
            let us = board.side_to_move;
            if sq.rank() != Rank::Sixth.relative_to(us) {
                return Err(ParseFenError::EnPassant);
            }
            let pushed = Square::new(sq.file(), Rank::Fifth.relative_to(us));
            let origin = Square::new(sq.file(), Rank::Seventh.relative_to(us));
            if board.piece_on(pushed) != Some(Piece::new(!us, PieceType::Pawn))
                || board.piece_on(sq).is_some()
                || board.piece_on(origin).is_some()
            {
                return Err(PositionError::ImpossibleEnPassant.into());
            }
            // Keep the square only when a capture may be possible, as after a real move.
            if (attacks::pawn(!us, sq) & board.colored_pieces(us, PieceType::Pawn)).is_nonempty() {
                board.en_passant = Some(sq);
                board.key ^= zobrist::en_passant(sq.file());
            }
        }
        board.update_checks_and_pins();
        board.validate()?;
        Ok(board)
    }

    /// Checks that the position could arise in a game as far as the rules of move
    /// generation need: one king each, at most 16 pieces and 8 pawns a side, no pawn on the
    /// first or last rank, the side not to move not in check, at most two checkers (never
    /// two pawns or two knights), castling rights backed by king and rook on their
    /// home rank, and an en passant square that follows a double push.
    ///
    /// Boards built by [`Board::from_fen`] have passed this check already.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
    /// assert_eq!(board.validate(), Ok(()));
    /// for mv in board.legal_moves() {
    ///     let mut child = board;
    ///     child.play(mv);
    ///     assert_eq!(child.validate(), Ok(())); // legal moves keep a board valid
    /// }
    /// ```
    pub fn validate(&self) -> Result<(), PositionError> {
        self.validate_without_en_passant()?;
        if let Some(ep) = self.en_passant {
            let us = self.side_to_move;
            let pushed = Square::new(ep.file(), Rank::Fifth.relative_to(us));
            if ep.rank() != Rank::Sixth.relative_to(us)
                || self.piece_on(pushed) != Some(Piece::new(!us, PieceType::Pawn))
                || self.piece_on(ep).is_some()
            {
                return Err(PositionError::ImpossibleEnPassant);
            }
        }
        let checkers = self.checkers;
        if checkers.len() > 2 {
            return Err(PositionError::ImpossibleCheck);
        }
        // Two pawns or two knights can never give check at once. (Two sliders on one line
        // can't either, but the classic perft suite contains such positions, and move
        // generation handles every double check, so they are accepted.)
        for kind in [PieceType::Pawn, PieceType::Knight] {
            if (checkers & self.pieces(kind)).len() == 2 {
                return Err(PositionError::ImpossibleCheck);
            }
        }
        Ok(())
    }

    fn validate_without_en_passant(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            match self.colored_pieces(color, PieceType::King).len() {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                _ => return Err(PositionError::TooManyKings(color)),
            }
            if self.colored(color).len() > 16 || self.colored_pieces(color, PieceType::Pawn).len() > 8 {
                return Err(PositionError::TooManyPieces(color));
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if self.pieces(PieceType::Pawn).intersects(back_ranks) {
            return Err(PositionError::PawnOnBackRank);
        }
        let them = !self.side_to_move;
        if self.is_attacked(self.king(them), self.side_to_move) {
            return Err(PositionError::OppositeCheck);
        }
        for color in Color::ALL {
            let king = self.king(color);
            for side in CastlingSide::ALL {
                if !self.castling.contains(CastlingRights::new(color, side)) {
                    continue;
                }
                let rook = self.castle_rooks[color as usize][side as usize];
                let home = Rank::First.relative_to(color);
                let rook_ok = self.piece_on(rook) == Some(Piece::new(color, PieceType::Rook)) && rook.rank() == home;
                let king_ok = king.rank() == home
                    && match side {
                        CastlingSide::King => rook.file() > king.file(),
                        CastlingSide::Queen => rook.file() < king.file(),
                    };
                let standard_ok = self.chess960
                    || (king.file() == File::E
                        && rook.file() == if side == CastlingSide::King { File::H } else { File::A });
                if !(rook_ok && king_ok && standard_ok) {
                    return Err(PositionError::CastlingWithoutKingOrRook);
                }
            }
        }
        Ok(())
    }

    /// The FEN of this position, as a value that implements `Display`.
    ///
    /// Castling is written `KQkq` in standard chess and as rook files (Shredder-FEN, `HAha`)
    /// in Chess960. The en passant square is written only when a pawn could capture there.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// assert_eq!(Board::from_fen(fen, CastlingMode::Standard).unwrap().fen().to_string(), fen);
    /// ```
    pub fn fen(&self) -> Fen<'_> {
        Fen(self)
    }
}

fn parse_castling(board: &mut Board, text: &str) -> Result<(), ParseFenError> {
    if text == "-" {
        return Ok(());
    }
    let mut rights = CastlingRights::empty();
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let home = Rank::First.relative_to(color);
        let king_bb = board.colored_pieces(color, PieceType::King) & Bitboard::rank(home);
        let Some(king) = king_bb.first() else {
            return Err(ParseFenError::Castling { found: c });
        };
        let rooks = board.colored_pieces(color, PieceType::Rook) & Bitboard::rank(home);
        let (side, rook) = match c.to_ascii_lowercase() {
            'k' => {
                let rook = (rooks & Bitboard(u64::MAX.checked_shl(king as u32 + 1).unwrap_or(0))).last();
                (CastlingSide::King, rook)
            }
            'q' => {
                let rook = (rooks & Bitboard((1u64 << king as u32) - 1)).first();
                (CastlingSide::Queen, rook)
            }
            l @ 'a'..='h' => {
                let file = File::from_char(l).ok_or(ParseFenError::Castling { found: c })?;
                let sq = Square::new(file, home);
                let side = if file > king.file() { CastlingSide::King } else { CastlingSide::Queen };
                (side, rooks.has(sq).then_some(sq))
            }
            _ => return Err(ParseFenError::Castling { found: c }),
        };
        let Some(rook) = rook else {
            return Err(ParseFenError::Castling { found: c });
        };
        let right = CastlingRights::new(color, side);
        if rights.contains(right) {
            return Err(ParseFenError::Castling { found: c });
        }
        rights |= right;
        board.castle_rooks[color as usize][side as usize] = rook;
    }
    board.castling = rights;
    board.key ^= zobrist::castling(rights);
    Ok(())
}

/// A FEN view of a [`Board`], printed by `Display` (see [`Board::fen`]).
///
/// ```
/// use cutoff_board::{Board, CastlingMode, STARTPOS_FEN};
/// let board = Board::default();
/// let fen = board.fen();
/// assert_eq!(format!("{fen}"), STARTPOS_FEN);
/// // Chess960 boards write castling rights as rook files (Shredder-FEN).
/// let chess960 = Board::from_fen(STARTPOS_FEN, CastlingMode::Chess960).unwrap();
/// assert_eq!(chess960.fen().to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Fen<'a>(&'a Board);

impl fmt::Display for Fen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        for (i, rank) in Rank::ALL.iter().rev().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for file in File::ALL {
                match b.piece_on(Square::new(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.to_char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        write!(f, " {} ", b.side_to_move.to_char())?;
        if b.castling.is_empty() {
            f.write_str("-")?;
        } else {
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if let Some(rook) = b.castling_rook(color, side) {
                        let c = if b.chess960 {
                            rook.file().to_char()
                        } else if side == CastlingSide::King {
                            'k'
                        } else {
                            'q'
                        };
                        let c = if color == Color::White { c.to_ascii_uppercase() } else { c };
                        write!(f, "{c}")?;
                    }
                }
            }
        }
        match b.en_passant {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", b.halfmove_clock, b.fullmove_number)
    }
}
