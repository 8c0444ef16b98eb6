//! Writing game files: the header, then games appended one at a time.

use super::*;

/// Writes games to `W`: the header at [`GameWriter::new`], then one game per
/// [`write_game`](GameWriter::write_game), each with a single `write_all`.
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_games::{GameReader, GameRecord, GameResult, GameWriter};
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
    /// use cutoff_games::Encoding;
    /// use cutoff_games::{GameReader, GameRecord, GameResult, GameWriter};
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
