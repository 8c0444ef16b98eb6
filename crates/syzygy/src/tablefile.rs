//! One parsed table file (`docs/syzygy-format.md`, section 2): its sub-tables, each a
//! [`Layout`] and a [`PairsDecoder`], and for DTZ tables the value maps. The file's bytes stay
//! where they are (a memory map); the parsed parts hold offsets into them.

use std::ops::Deref;

use crate::TableError;
use crate::bytes::{Bytes, Cursor};
use crate::index::{Layout, pawn_number};
use crate::material::Material;
use crate::pairs::PairsDecoder;

/// The magic numbers that start a file.
pub(crate) const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
pub(crate) const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// WDL (`.rtbw`) or DTZ (`.rtbz`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Wdl,
    Dtz,
}

/// DTZ sub-table flags.
const FLAG_BLACK_TO_MOVE: u8 = 1;
const FLAG_MAPPED: u8 = 2;
const FLAG_WIN_IN_PLIES: u8 = 4;
const FLAG_LOSS_IN_PLIES: u8 = 8;
const FLAG_WIDE_MAP: u8 = 16;

/// One of the four value lists of a DTZ file slot: `len` entries from `at`, bytes or u16.
#[derive(Clone, Copy, Debug, Default)]
struct ValueList {
    at: usize,
    len: usize,
    wide: bool,
}

#[derive(Debug)]
struct SubTable {
    layout: Layout,
    pairs: PairsDecoder,
}

/// A table: the file's bytes and what its header says about them.
pub(crate) struct TableFile<D> {
    data: D,
    kind: Kind,
    /// The code of the leading pawns (pawn tables), table frame.
    lead_pawn: Option<u8>,
    /// Both colourings have the same pieces.
    symmetric: bool,
    sides: usize,
    /// `file slot * sides + side`.
    subs: Vec<SubTable>,
    /// DTZ value lists per file slot, in the order win, loss, cursed win, blessed loss.
    maps: Vec<Option<[ValueList; 4]>>,
}

impl<D> std::fmt::Debug for TableFile<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableFile").field("kind", &self.kind).field("subs", &self.subs.len()).finish()
    }
}

/// A piece of a position in the table's frame.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Placed {
    pub(crate) code: u8,
    pub(crate) square: u8,
}

/// What a DTZ table says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stored {
    /// Plies, positive (before the sign of the outcome is applied).
    Plies(i32),
    /// The table stores the other side to move.
    OtherSide,
}

impl<D: Deref<Target = [u8]>> TableFile<D> {
    /// Parses the header of a `kind` file of `material`.
    pub(crate) fn parse(data: D, kind: Kind, material: &Material) -> Result<TableFile<D>, TableError> {
        let bytes = Bytes(&data);
        let magic = match kind {
            Kind::Wdl => WDL_MAGIC,
            Kind::Dtz => DTZ_MAGIC,
        };
        if bytes.slice(0, 4)? != magic {
            return Err(TableError::BadMagic);
        }
        let flags = bytes.u8(4)?;
        let has_pawns = flags & 2 != 0;
        if has_pawns != material.has_pawns() {
            return Err(TableError::Corrupt("pawn flag does not match the table name"));
        }
        let split = flags & 1 != 0;
        let sides = if kind == Kind::Wdl && split { 2 } else { 1 };
        if kind == Kind::Wdl && split == material.symmetric() {
            return Err(TableError::Corrupt("split flag does not match the table name"));
        }
        let slots = if has_pawns { 4 } else { 1 };
        let both_pawns = material.both_pawns();
        let unique = material.has_unique_piece();
        let mut expected = material.codes();
        expected.sort_unstable();

        // Piece orders and layouts.
        let mut cur = Cursor::new(&data, 5);
        let mut layouts = Vec::with_capacity(slots * sides);
        for slot in 0..slots {
            let order = cur.u8()?;
            let pawns_order = if both_pawns { cur.u8()? } else { 0 };
            let mut pieces = [Vec::new(), Vec::new()];
            for _ in 0..material.pieces {
                let b = cur.u8()?;
                pieces[0].push(b & 15);
                pieces[1].push(b >> 4);
            }
            for (side, pieces) in pieces.into_iter().enumerate().take(sides) {
                let mut sorted = pieces.clone();
                sorted.sort_unstable();
                if sorted != expected {
                    return Err(TableError::Corrupt("piece order does not match the table name"));
                }
                let nibble = |b: u8| if side == 0 { b & 15 } else { b >> 4 };
                let layout =
                    Layout::new(pieces, nibble(order), nibble(pawns_order), slot, has_pawns, unique, both_pawns)?;
                layouts.push(layout);
            }
        }
        let lead_pawn = if has_pawns { Some(layouts[0].pieces[0]) } else { None };
        if layouts.iter().any(|l| Some(l.pieces[0]) != lead_pawn && has_pawns) {
            return Err(TableError::Corrupt("leading pawns differ between sub-tables"));
        }
        cur.align(2);

        // Sub-table headers.
        let mut subs = Vec::with_capacity(layouts.len());
        for layout in layouts {
            let pairs = PairsDecoder::parse(&mut cur, layout.size)?;
            subs.push(SubTable { layout, pairs });
        }

        // DTZ value maps.
        let mut maps = vec![None; slots];
        if kind == Kind::Dtz {
            for (slot, map) in maps.iter_mut().enumerate() {
                let flags = subs[slot].pairs.flags;
                if flags & 0x80 != 0 || flags & FLAG_MAPPED == 0 {
                    continue;
                }
                let wide = flags & FLAG_WIDE_MAP != 0;
                let mut lists = [ValueList::default(); 4];
                for list in &mut lists {
                    if wide {
                        cur.align(2);
                        let len = usize::from(cur.u16_le()?);
                        *list = ValueList { at: cur.skip(2 * len)?, len, wide };
                    } else {
                        let len = usize::from(cur.u8()?);
                        *list = ValueList { at: cur.skip(len)?, len, wide };
                    }
                }
                *map = Some(lists);
            }
            cur.align(2);
        }

        // The three regions, each through all sub-tables.
        let regions: Vec<_> = subs.iter().map(|s| s.pairs.regions()).collect::<Result<_, _>>()?;
        let sparse: Vec<usize> = regions.iter().map(|r| cur.skip(r.sparse)).collect::<Result<_, _>>()?;
        let lengths: Vec<usize> = regions.iter().map(|r| cur.skip(r.lengths)).collect::<Result<_, _>>()?;
        for (i, sub) in subs.iter_mut().enumerate() {
            if regions[i].blocks > 0 {
                cur.align(64);
            }
            let blocks = cur.skip(regions[i].blocks)?;
            sub.pairs.place(sparse[i], lengths[i], blocks);
        }
        Ok(TableFile { data, kind, lead_pawn, symmetric: material.symmetric(), sides, subs, maps })
    }

    /// Where a position is: its file slot, sub-table and index. `pieces` are the position's
    /// pieces in the table frame, `side` the side to move there (0 white, 1 black).
    /// `Ok(None)`: the placement is not a legal position.
    fn locate(&self, pieces: &[Placed], side: usize) -> Result<Option<(usize, &SubTable, u64)>, TableError> {
        let slot = match self.lead_pawn {
            None => 0,
            Some(lead) => {
                let leading = pieces
                    .iter()
                    .filter(|p| p.code == lead)
                    .max_by_key(|p| pawn_number(p.square))
                    .ok_or(TableError::Corrupt("no leading pawn"))?;
                let f = usize::from(leading.square & 7);
                f.min(7 - f)
            }
        };
        let sub = &self.subs[slot * self.sides + side.min(self.sides - 1)];
        // Squares in the piece order, the leading pawn first.
        let n = sub.layout.pieces.len();
        if pieces.len() != n {
            return Err(TableError::Corrupt("material differs"));
        }
        let mut squares = [0u8; 7];
        let mut used = [false; 7];
        for (place, &code) in sub.layout.pieces.iter().enumerate() {
            let mut candidates = pieces.iter().enumerate().filter(|&(i, p)| !used[i] && p.code == code);
            let chosen = if place == 0 && self.lead_pawn.is_some() {
                candidates.max_by_key(|(_, p)| pawn_number(p.square))
            } else {
                candidates.next()
            };
            let (i, p) = chosen.ok_or(TableError::Corrupt("material differs"))?;
            used[i] = true;
            squares[place] = p.square;
        }
        Ok(sub.layout.index(&mut squares[..n]).map(|index| (slot, sub, index)))
    }

    /// The WDL value (-2..2) of a position; `Ok(None)` when the placement is impossible.
    pub(crate) fn wdl(&self, pieces: &[Placed], side: usize) -> Result<Option<i32>, TableError> {
        let Some((_, sub, index)) = self.locate(pieces, side)? else { return Ok(None) };
        match sub.pairs.value(&self.data, index)? {
            v @ 0..=4 => Ok(Some(i32::from(v) - 2)),
            _ => Err(TableError::Corrupt("WDL value out of range")),
        }
    }

    /// The DTZ table's distance for a position whose outcome is `wdl` (not a draw), in plies,
    /// before the sign and the 100 of a cursed outcome are applied (section 7).
    pub(crate) fn dtz(&self, pieces: &[Placed], side: usize, wdl: i32) -> Result<Option<Stored>, TableError> {
        let Some((slot, sub, index)) = self.locate(pieces, 0)? else { return Ok(None) };
        let flags = sub.pairs.flags;
        // A symmetric table is looked up with white to move (its colours are swapped when
        // black is to move), so it answers for both sides.
        if !self.symmetric && usize::from(flags & FLAG_BLACK_TO_MOVE) != side {
            return Ok(Some(Stored::OtherSide));
        }
        let raw = sub.pairs.value(&self.data, index)?;
        let mut v = u32::from(raw);
        if flags & 0x80 == 0 && flags & FLAG_MAPPED != 0 {
            let list = match wdl {
                2 => 0,
                -2 => 1,
                1 => 2,
                _ => 3,
            };
            let lists = self.maps.get(slot).copied().flatten().ok_or(TableError::Corrupt("value map missing"))?;
            let l = lists[list];
            let i = usize::from(raw);
            if i >= l.len {
                return Err(TableError::Corrupt("value past its map"));
            }
            let bytes = Bytes(&self.data);
            v = if l.wide { u32::from(bytes.u16_le(l.at + 2 * i)?) } else { u32::from(bytes.u8(l.at + i)?) };
        }
        let in_plies = match wdl {
            2 => flags & FLAG_WIN_IN_PLIES != 0,
            -2 => flags & FLAG_LOSS_IN_PLIES != 0,
            _ => false,
        };
        if !in_plies {
            v *= 2;
        }
        Ok(Some(Stored::Plies(v as i32 + 1)))
    }
}
