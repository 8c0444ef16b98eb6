//! Probing positions: the table lookup for a position, and the small searches over captures
//! and zeroing moves that the format needs (en passant is not in the tables; a DTZ table
//! stores one side to move).

use cutoff_board::{Board, Color, GenKind, Move, MoveList, PieceType};

use crate::Tablebases;
use crate::table::{Kind, Probed};

const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];

/// The pieces of a position as one table sees them: which side is the table's "white"
/// (`flip`) and which side is to move in the table's terms (`bside`).
pub(crate) struct Placement<'a> {
    board: &'a Board,
    flip: bool,
    pub(crate) bside: bool,
}

impl Placement<'_> {
    /// Writes the squares of the pieces `codes` (consecutive runs of one piece code) into
    /// `out`. `None` when the position does not have exactly those pieces.
    pub(crate) fn fill(&self, codes: &[u8], out: &mut [usize], pawn_table: bool) -> Option<()> {
        let mirror = if pawn_table && self.flip { 0x38 } else { 0 };
        let mut i = 0;
        while i < codes.len() {
            let code = codes[i];
            let black = (code & 8 != 0) != self.flip;
            let color = if black { Color::Black } else { Color::White };
            let kind = PieceType::try_from_index(usize::from(code & 7).checked_sub(1)?)?;
            let bb = self.board.colored_pieces(color, kind);
            if bb.is_empty() {
                return None;
            }
            for sq in bb {
                *out.get_mut(i)? = sq.index() ^ mirror;
                i += 1;
            }
            if i < codes.len() && codes[i] == code {
                return None;
            }
        }
        Some(())
    }
}

/// The material key of a position (`mirror`: colours swapped), as [`crate::material_key`].
pub(crate) fn board_key(board: &Board, mirror: bool) -> u64 {
    let mut counts = [[0u8; 6]; 2];
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            counts[color.index()][kind.index()] = board.colored_pieces(color, kind).len() as u8;
        }
    }
    if mirror {
        counts.swap(0, 1);
    }
    crate::material_key(&counts)
}

fn is_mate(board: &Board) -> bool {
    board.in_check() && !board.has_legal_moves()
}

fn is_pawn_move(board: &Board, mv: Move) -> bool {
    board.kind_on(mv.from()) == Some(PieceType::Pawn)
}

fn after(board: &Board, mv: Move) -> Board {
    let mut next = *board;
    next.play_unchecked(mv);
    next
}

fn captures(board: &Board) -> MoveList {
    let mut list = MoveList::new();
    board.generate(GenKind::Noisy, &mut list);
    list.retain(|mv| mv.is_capture());
    list
}

impl Tablebases {
    /// The value in the WDL or DTZ table of the position, ignoring en passant.
    fn probe_table(&self, board: &Board, kind: Kind, wdl: i32) -> Option<Probed> {
        let key = board_key(board, false);
        if kind == Kind::Wdl && key == 0 {
            return Some(Probed::Value(0)); // two bare kings
        }
        let entry = self.entry(key)?;
        let table = self.table(entry, kind)?;
        let mat = &entry.material;
        let (flip, bside) = if mat.symmetric {
            (board.side_to_move() == Color::Black, false)
        } else {
            let flip = key != entry.key;
            (flip, (board.side_to_move() == Color::White) == flip)
        };
        let placement = Placement { board, flip, bside };
        let probed = table.probe(mat, &placement, wdl);
        if probed.is_none() {
            self.report_decode_error(entry, kind);
        }
        probed
    }

    fn probe_wdl_table(&self, board: &Board) -> Option<i32> {
        match self.probe_table(board, Kind::Wdl, 0)? {
            Probed::Value(v) => Some(v),
            Probed::OtherSide => None,
        }
    }

    fn probe_ab(&self, board: &Board, mut alpha: i32, beta: i32) -> Option<i32> {
        for &mv in captures(board).iter() {
            let v = -self.probe_ab(&after(board, mv), -beta, -alpha)?;
            if v > alpha {
                if v >= beta {
                    return Some(v);
                }
                alpha = v;
            }
        }
        let v = self.probe_wdl_table(board)?;
        Some(alpha.max(v))
    }

    /// The WDL value (-2..=2) with en passant, and whether it comes from a capture (a "zeroing"
    /// best move: then the DTZ is known without the DTZ table).
    pub(crate) fn probe_wdl_raw(&self, board: &Board) -> Option<(i32, bool)> {
        let mut best_cap = -3;
        let mut best_ep = -3;
        for &mv in captures(board).iter() {
            let v = -self.probe_ab(&after(board, mv), -2, -best_cap)?;
            if v > best_cap {
                if v == 2 {
                    return Some((2, true));
                }
                if !mv.is_en_passant() {
                    best_cap = v;
                } else if v > best_ep {
                    best_ep = v;
                }
            }
        }
        let v = self.probe_wdl_table(board)?;
        if best_ep > best_cap {
            if best_ep > v {
                return Some((best_ep, true));
            }
            best_cap = best_ep;
        }
        if best_cap >= v {
            return Some((best_cap, best_cap > 0));
        }
        if best_ep > -3 && v == 0 {
            // The table's draw may be a stalemate that en passant avoids: with no other legal
            // move, the en passant capture is forced.
            let only_ep = board.legal_moves().iter().all(|mv| mv.is_en_passant());
            if only_ep && !board.in_check() {
                return Some((best_ep, true));
            }
        }
        Some((v, false))
    }

    /// The DTZ value, Fathom's convention (the sign of the WDL value; 1 or -1 for a zeroing
    /// move at once, 101/-101 for a cursed win/blessed loss decided by a zeroing move).
    pub(crate) fn probe_dtz_raw(&self, board: &Board) -> Option<i32> {
        let (wdl, zeroing) = self.probe_wdl_raw(board)?;
        if wdl == 0 {
            return Some(0);
        }
        let wdl_dtz = WDL_TO_DTZ[(wdl + 2) as usize];
        if zeroing {
            return Some(wdl_dtz);
        }
        let legal = board.legal_moves();
        if wdl > 0 {
            for &mv in legal.iter() {
                if is_pawn_move(board, mv) && !mv.is_capture() {
                    let v = -self.probe_wdl_raw(&after(board, mv))?.0;
                    if v == wdl {
                        return Some(wdl_dtz);
                    }
                }
            }
        }
        match self.probe_table(board, Kind::Dtz, wdl)? {
            Probed::Value(dtz) => return Some(wdl_dtz + if wdl > 0 { dtz } else { -dtz }),
            Probed::OtherSide => {}
        }
        // The table stores the other side to move: one ply of search.
        let mut best = if wdl > 0 { i32::MAX } else { wdl_dtz };
        for &mv in legal.iter() {
            if mv.is_capture() || is_pawn_move(board, mv) {
                continue;
            }
            let next = after(board, mv);
            let v = -self.probe_dtz_raw(&next)?;
            if v == 1 && is_mate(&next) {
                best = 1;
            } else if wdl > 0 {
                if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            } else if v - 1 < best {
                best = v - 1;
            }
        }
        (best != i32::MAX).then_some(best)
    }

    /// The DTZ-like value of each root move from the mover's side (see
    /// [`Tablebases::rank_root_moves`]).
    pub(crate) fn root_values(&self, board: &Board) -> Option<Vec<(Move, i32)>> {
        let mut out = Vec::new();
        for &mv in board.legal_moves().iter() {
            let next = after(board, mv);
            let mut v = if next.halfmove_clock() == 0 {
                let (w, _) = self.probe_wdl_raw(&next)?;
                WDL_TO_DTZ[(2 - w) as usize]
            } else {
                let d = -self.probe_dtz_raw(&next)?;
                d + d.signum()
            };
            if v == 2 && is_mate(&next) {
                v = 1;
            }
            out.push((mv, v));
        }
        Some(out)
    }
}
