//! A recorded game and what is read from it: the result, the moves with their scores, the
//! positions replayed, and which of them are training positions.

use super::*;

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
    /// use cutoff_games::GameResult;
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
    /// use cutoff_games::GameResult;
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
/// use cutoff_games::{GameRecord, GameResult};
/// let mut game = GameRecord::new(Board::default(), GameResult::Draw);
/// let e4 = Board::default().parse_uci("e2e4").unwrap();
/// game.push(e4, Some(30)).unwrap();
/// assert!(game.push(e4, Some(30)).is_err()); // Black to move: e2e4 is illegal now
/// assert_eq!(game.len(), 1);
/// assert_eq!(game.end_board().fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub(super) start: Board,
    pub(super) end: Board,
    pub(super) result: GameResult,
    pub(super) plies: Vec<Ply>,
    pub(super) final_score: Option<i16>,
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
    /// use cutoff_games::{GameRecord, GameResult};
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
/// EPD position) is kept: the trainer uses its result alone. Self-play scores every move and
/// EPD positions have no move, so only final positions take this rule.
///
/// ```
/// use cutoff_board::{Board, CastlingMode};
/// use cutoff_games::is_training_position;
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
