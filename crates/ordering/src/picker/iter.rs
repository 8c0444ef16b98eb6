//! [`MovePicker::iter`]: the picker's moves as an [`Iterator`], for loops that do not change
//! the history.

use cutoff_board::Move;

use super::MovePicker;
use crate::Histories;

impl<'a> MovePicker<'a> {
    /// The remaining moves as an [`Iterator`] that reads `history` at every step, for loops in
    /// which the history does not change (a move list to print, a root to sort, tests). A
    /// search, which writes the history while a node's earlier moves are searched, calls
    /// [`MovePicker::next`] with the tables as they are at each call instead: that is why the
    /// picker is not an `Iterator` itself.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_ordering::{Histories, MovePicker, OrderingConfig};
    /// let kiwipete: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
    /// let history = Histories::boxed();
    /// let mut picker = MovePicker::main(&kiwipete, None, [None; 3], None, OrderingConfig::FULL);
    /// let first_three: Vec<String> = picker.iter(&history).take(3).map(|mv| kiwipete.san(mv).to_string()).collect();
    /// assert_eq!(first_three, ["Bxa6", "gxh3", "dxe6"]); // the bishop, then pawns (by MVV-LVA)
    /// assert_eq!(picker.iter(&history).count(), 48 - 3); // the rest
    /// ```
    pub fn iter<'p>(&'p mut self, history: &'p Histories) -> PickerIter<'p, 'a> {
        PickerIter { picker: self, history }
    }
}

/// The moves of a [`MovePicker`] as an [`Iterator`]; see [`MovePicker::iter`].
#[derive(Debug)]
pub struct PickerIter<'p, 'a> {
    picker: &'p mut MovePicker<'a>,
    history: &'p Histories,
}

impl Iterator for PickerIter<'_, '_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        self.picker.next(self.history)
    }
}

/// Once the picker has returned `None` it stays done.
impl core::iter::FusedIterator for PickerIter<'_, '_> {}
