//! Draws by rule and by repetition, and the repetition that the side to move can bring about.

use cutoff_board::Board;

use super::Worker;

impl Worker {
    /// Draw by repetition (a repetition inside the search, or a third occurrence), the
    /// 50-move rule (unless the side to move is mated), or insufficient material.
    pub(super) fn is_draw(&self, board: &Board) -> bool {
        if board.halfmove_clock() >= 100 && (!board.in_check() || board.has_legal_moves()) {
            return true;
        }
        if board.is_insufficient_material() {
            return true;
        }
        let key = board.key();
        let n = self.keys.len();
        let window = (board.halfmove_clock() as usize).min(n);
        let mut seen = 0;
        let mut back = 2;
        while back <= window {
            let i = n - back;
            if self.keys[i] == key {
                if i >= self.root_index {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Whether the side to move can bring about a draw by repetition with its next move (an
    /// "upcoming repetition", [`Board::reaches_key`]): a knight, bishop, rook, queen or king
    /// move that reaches an earlier position with the same side to move, by the rules of
    /// [`Worker::is_draw`]: once is enough inside the search, a position before the root must
    /// have occurred twice already. Only positions since the last capture or pawn move and
    /// after the last null move of the path count.
    pub(super) fn upcoming_repetition(&self, board: &Board, ply: usize) -> bool {
        let n = self.keys.len();
        let window = (board.halfmove_clock() as usize).min(n);
        // The position `back` plies ago has the other side to move for odd `back`; one ply
        // ago is the position before the opponent's last move, which our move cannot restore.
        let mut back = 3;
        while back <= window {
            let i = n - back;
            if board.reaches_key(self.keys[i]) && !self.null_move_within(ply, back) {
                if i >= self.root_index {
                    return true;
                }
                let key = self.keys[i];
                let mut earlier = back + 2;
                while earlier <= window {
                    if self.keys[n - earlier] == key {
                        return true;
                    }
                    earlier += 2;
                }
            }
            back += 2;
        }
        false
    }

    /// Whether a null move was made in the last `back` plies of the path to `ply`.
    pub(super) fn null_move_within(&self, ply: usize, back: usize) -> bool {
        (1..=back.min(ply)).any(|n| self.back(ply, n).null)
    }
}
