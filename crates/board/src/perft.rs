//! Perft: counting the leaves of the legal move tree, to test move generation.

use crate::{Board, GenKind, Move, MoveList};

impl Board {
    /// The number of leaf nodes of the legal move tree `depth` plies deep.
    ///
    /// The last ply is counted in bulk ([`Board::count_moves`]), without making the moves.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// assert_eq!(Board::default().perft(3), 8_902);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => self.clone().perft_in_place(depth),
        }
    }

    /// Make/unmake perft (measured faster than copy-make here).
    fn perft_in_place(&mut self, depth: u32) -> u64 {
        if depth <= 1 {
            return self.count_moves();
        }
        let mut moves = MoveList::new();
        self.generate(GenKind::All, &mut moves);
        let mut nodes = 0;
        for mv in moves {
            let undo = self.make_move(mv);
            nodes += self.perft_in_place(depth - 1);
            self.unmake_move(mv, undo);
        }
        nodes
    }

    /// Perft split by root move ("divide"): each legal move with the leaf count below it,
    /// in generation order. The counts add up to `perft(depth)` for `depth >= 1`.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// let board = Board::default();
    /// let divide = board.divide(2);
    /// assert_eq!(divide.len(), 20);
    /// assert!(divide.iter().all(|&(_, n)| n == 20));
    /// ```
    pub fn divide(&self, depth: u32) -> arrayvec::ArrayVec<(Move, u64), 256> {
        let mut moves = MoveList::new();
        self.generate(GenKind::All, &mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let mut child = *self;
                child.play_unchecked(mv);
                (mv, child.perft(depth.saturating_sub(1)))
            })
            .collect()
    }
}
