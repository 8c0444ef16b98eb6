//! Standard algebraic notation (SAN): `Nf3`, `exd5`, `e8=Q+`, `O-O-O#`.

use core::fmt;

use crate::{Board, CastlingSide, File, GenKind, IllegalMoveError, Move, MoveList, PieceType, Rank, Square};

/// Why a SAN string was rejected by [`Board::parse_san`].
///
/// ```
/// use cutoff_board::{Board, CastlingMode, ParseSanError};
/// // Knights on c3 and g3 can both go to e4.
/// let board = Board::from_fen("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
/// assert_eq!(board.parse_san("Ne4"), Err(ParseSanError::Ambiguous));
/// assert_eq!(board.parse_san("N3e4"), Err(ParseSanError::Ambiguous)); // both on the third rank
/// assert!(board.parse_san("Nce4").is_ok());
/// assert_eq!(board.parse_san("Nd2"), Err(ParseSanError::Illegal));
/// assert_eq!(board.parse_san("Zf3"), Err(ParseSanError::Syntax));
/// assert_eq!(ParseSanError::Ambiguous.to_string(), "ambiguous SAN: more than one legal move matches");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseSanError {
    /// Not SAN at all (for example `Zf3`, `e9`, or an empty string).
    Syntax,
    /// Well formed, but no legal move matches it.
    Illegal,
    /// Several legal moves match it (for example `Nd2` when two knights can go there).
    Ambiguous,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSanError::Syntax => f.write_str("malformed SAN move"),
            ParseSanError::Illegal => f.write_str("no legal move matches this SAN"),
            ParseSanError::Ambiguous => f.write_str("ambiguous SAN: more than one legal move matches"),
        }
    }
}

impl core::error::Error for ParseSanError {}

/// A move written in SAN for a given board (see [`Board::san`]); at most 7 characters.
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let board = Board::from_fen(kiwipete, CastlingMode::Standard).unwrap();
/// let san = board.san(board.parse_uci("e2a6").unwrap());
/// assert_eq!(san.to_string(), "Bxa6");
/// assert_eq!(board.san(board.parse_uci("e1c1").unwrap()).to_string(), "O-O-O");
/// assert_eq!(board.san(board.parse_uci("e5f7").unwrap()).to_string(), "Nxf7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct San(arrayvec::ArrayString<8>);

impl San {
    /// The SAN text.
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let board = Board::from_fen("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    /// let san = board.san(board.parse_uci("e7d8q").unwrap());
    /// assert_eq!(san.as_str(), "exd8=Q+");
    /// assert_eq!(board.parse_san(san.as_str()).ok(), board.parse_uci("e7d8q").ok());
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn push(s: &mut arrayvec::ArrayString<8>, c: char) {
    // SAN never exceeds 7 characters (e.g. "Qa1xb2#" or "exd8=Q+"), so this cannot fail.
    let _ = s.try_push(c);
}

impl Board {
    /// `mv` (which must be legal here) in SAN, with `+` for check and `#` for mate.
    ///
    /// An illegal move gives meaningless text (for example `Kxe8` for a king "capturing" the
    /// other king); debug builds panic on it. Use [`Board::try_san`] for moves that may be
    /// illegal (from a hash table, a killer slot, another program).
    ///
    /// ```
    /// use cutoff_board::{Board, CastlingMode};
    /// let b = Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3", CastlingMode::Standard).unwrap();
    /// assert_eq!(b.san(b.parse_uci("f3f7").unwrap()).as_str(), "Qxf7#");
    /// assert_eq!(b.san(b.parse_uci("g1e2").unwrap()).as_str(), "Ne2");
    /// ```
    pub fn san(&self, mv: Move) -> San {
        debug_assert!(self.is_legal(mv), "Board::san of the illegal move {mv:?} in {}", self.fen());
        let mut s = arrayvec::ArrayString::new();
        let from = mv.from();
        let to = mv.to();
        if mv.is_castle() {
            let side = if to.file() > from.file() { CastlingSide::King } else { CastlingSide::Queen };
            for c in if side == CastlingSide::King { "O-O" } else { "O-O-O" }.chars() {
                push(&mut s, c);
            }
        } else {
            let kind = self.kind_on(from).unwrap_or(PieceType::Pawn);
            if kind == PieceType::Pawn {
                if mv.is_capture() {
                    push(&mut s, from.file().to_char());
                }
            } else {
                push(&mut s, kind.to_char().to_ascii_uppercase());
                let mut moves = MoveList::new();
                self.generate(GenKind::All, &mut moves);
                let rivals = moves.iter().filter(|m| {
                    m.to() == to && m.from() != from && !m.is_castle() && self.kind_on(m.from()) == Some(kind)
                });
                let (mut any, mut same_file, mut same_rank) = (false, false, false);
                for r in rivals {
                    any = true;
                    same_file |= r.from().file() == from.file();
                    same_rank |= r.from().rank() == from.rank();
                }
                if any {
                    if !same_file {
                        push(&mut s, from.file().to_char());
                    } else if !same_rank {
                        push(&mut s, from.rank().to_char());
                    } else {
                        push(&mut s, from.file().to_char());
                        push(&mut s, from.rank().to_char());
                    }
                }
            }
            if mv.is_capture() {
                push(&mut s, 'x');
            }
            push(&mut s, to.file().to_char());
            push(&mut s, to.rank().to_char());
            if let Some(p) = mv.promotion() {
                push(&mut s, '=');
                push(&mut s, p.to_char().to_ascii_uppercase());
            }
        }
        let mut after = *self;
        after.play_unchecked(mv);
        if after.in_check() {
            push(&mut s, if after.has_legal_moves() { '+' } else { '#' });
        }
        San(s)
    }

    /// `mv` in SAN if it is legal here, else an error (see [`Board::san`]).
    ///
    /// ```
    /// use cutoff_board::{Board, IllegalMoveError, Move, MoveKind, Square};
    /// let board = Board::default();
    /// let nf3 = board.parse_uci("g1f3").unwrap();
    /// assert_eq!(board.try_san(nf3).unwrap().as_str(), "Nf3");
    /// let king_takes_king = Move::new(Square::E1, Square::E8, MoveKind::Capture);
    /// assert_eq!(board.try_san(king_takes_king), Err(IllegalMoveError { mv: king_takes_king }));
    /// ```
    pub fn try_san(&self, mv: Move) -> Result<San, IllegalMoveError> {
        if self.is_legal(mv) { Ok(self.san(mv)) } else { Err(IllegalMoveError { mv }) }
    }

    /// Reads a move in SAN (as [`Board::parse_san`]) and plays it. On error the board is
    /// unchanged.
    ///
    /// ```
    /// use cutoff_board::{Board, ParseSanError};
    /// let mut board = Board::default();
    /// for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"] {
    ///     board.play_san(san).unwrap();
    /// }
    /// assert_eq!(board.play_san("O-O"), Err(ParseSanError::Illegal)); // Black cannot castle yet
    /// assert_eq!(board.fen().to_string(), "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4");
    /// ```
    pub fn play_san(&mut self, text: &str) -> Result<Move, ParseSanError> {
        let mv = self.parse_san(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// Reads a move in SAN and returns it if exactly one legal move matches.
    ///
    /// Accepts the usual variations: a missing or extra check mark, annotations (`!`, `?`),
    /// `0-0` for `O-O`, promotions with or without `=`, and redundant disambiguation.
    ///
    /// ```
    /// use cutoff_board::{Board, ParseSanError};
    /// let b = Board::default();
    /// assert_eq!(b.parse_san("Nf3").unwrap(), b.parse_uci("g1f3").unwrap());
    /// assert_eq!(b.parse_san("e4!").unwrap(), b.parse_uci("e2e4").unwrap());
    /// assert_eq!(b.parse_san("Nd2"), Err(ParseSanError::Illegal));
    /// assert_eq!(b.parse_san("Xe4"), Err(ParseSanError::Syntax));
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, ParseSanError> {
        let text = text.trim_end_matches(['+', '#', '!', '?']);
        if text.is_empty() || !text.is_ascii() || text.len() > 10 {
            return Err(ParseSanError::Syntax);
        }
        let mut moves = MoveList::new();
        self.generate(GenKind::All, &mut moves);

        let castle = match text {
            "O-O" | "0-0" => Some(CastlingSide::King),
            "O-O-O" | "0-0-0" => Some(CastlingSide::Queen),
            _ => None,
        };
        if let Some(side) = castle {
            return moves
                .into_iter()
                .find(|m| m.is_castle() && (m.to().file() > m.from().file()) == (side == CastlingSide::King))
                .ok_or(ParseSanError::Illegal);
        }

        let mut bytes = text.as_bytes();
        let kind = match bytes[0] {
            b'N' => PieceType::Knight,
            b'B' => PieceType::Bishop,
            b'R' => PieceType::Rook,
            b'Q' => PieceType::Queen,
            b'K' => PieceType::King,
            b'a'..=b'h' => PieceType::Pawn,
            _ => return Err(ParseSanError::Syntax),
        };
        if kind != PieceType::Pawn {
            bytes = &bytes[1..];
        }
        // Promotion suffix: "=Q" or "Q".
        let mut promotion = None;
        if let Some(&last) = bytes.last()
            && matches!(last, b'N' | b'B' | b'R' | b'Q')
        {
            promotion = PieceType::from_char(last as char);
            bytes = &bytes[..bytes.len() - 1];
            if bytes.last() == Some(&b'=') {
                bytes = &bytes[..bytes.len() - 1];
            }
        }
        if bytes.len() < 2 {
            return Err(ParseSanError::Syntax);
        }
        let (head, dest) = bytes.split_at(bytes.len() - 2);
        let to = core::str::from_utf8(dest).ok().and_then(|d| d.parse::<Square>().ok()).ok_or(ParseSanError::Syntax)?;
        let mut head = head;
        let mut capture = false;
        if head.last() == Some(&b'x') {
            capture = true;
            head = &head[..head.len() - 1];
        }
        let (mut from_file, mut from_rank) = (None, None);
        for &c in head {
            if let Some(f) = File::from_char(c as char) {
                if from_file.is_some() || from_rank.is_some() {
                    return Err(ParseSanError::Syntax);
                }
                from_file = Some(f);
            } else if let Some(r) = Rank::from_char(c as char) {
                if from_rank.is_some() {
                    return Err(ParseSanError::Syntax);
                }
                from_rank = Some(r);
            } else {
                return Err(ParseSanError::Syntax);
            }
        }
        if promotion.is_some() && kind != PieceType::Pawn {
            return Err(ParseSanError::Syntax);
        }
        if kind == PieceType::Pawn && from_file.is_none() {
            // "e4" is a push from the e-file; a pawn capture always names its file.
            from_file = Some(to.file());
        }

        let mut found = None;
        for mv in moves {
            if mv.is_castle()
                || mv.to() != to
                || self.kind_on(mv.from()) != Some(kind)
                || mv.promotion() != promotion
                || from_file.is_some_and(|f| mv.from().file() != f)
                || from_rank.is_some_and(|r| mv.from().rank() != r)
                || (capture && !mv.is_capture())
            {
                continue;
            }
            if found.is_some() {
                return Err(ParseSanError::Ambiguous);
            }
            found = Some(mv);
        }
        found.ok_or(ParseSanError::Illegal)
    }
}
