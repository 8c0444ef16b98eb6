//! Reading game files of either encoding, checking every field and replaying every move.

use super::*;

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
