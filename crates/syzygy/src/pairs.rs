//! One compressed value stream of a table (`docs/syzygy-format.md`, sections 2 and 5): its
//! header, and the value at an index.

use crate::TableError;
use crate::bytes::{Bytes, Cursor};

/// A symbol that stands for one value has this as its right half.
const LEAF: u16 = 0xfff;

/// The longest code the decoder reads: its 64-bit window is refilled 32 bits at a time and
/// holds at least 33 bits before each code.
const MAX_CODE_BITS: u8 = 32;

/// How the sub-table's values are found.
#[derive(Debug)]
enum Stream {
    /// Every index has this value.
    Single(u16),
    /// Huffman-coded blocks of symbols.
    Coded(Box<Coded>),
}

/// The codes of one length.
#[derive(Clone, Copy, Debug)]
struct CodeLength {
    /// The smallest code of this length, left-aligned in 64 bits.
    floor: u64,
    /// The symbol of that code.
    first_symbol: u16,
    bits: u8,
}

/// One symbol of the tree.
#[derive(Clone, Copy, Debug)]
struct Symbol {
    /// `right == LEAF`: the symbol is the single value `left`; else the values of `left`, then
    /// those of `right`.
    left: u16,
    right: u16,
    /// Number of values the symbol stands for.
    span: u32,
}

#[derive(Debug)]
struct Coded {
    block_bits: u32,
    span_bits: u32,
    blocks: u32,
    /// Entries of the block-length list (blocks plus padding).
    length_entries: u32,
    /// One per code length, shortest first.
    codes: Vec<CodeLength>,
    /// For each value of a code's first 8 bits, the first entry of `codes` its length can be
    /// (the search for the length starts there).
    first_length: [u8; 256],
    symbols: Vec<Symbol>,
    sparse_at: usize,
    lengths_at: usize,
    blocks_at: usize,
}

/// The decoder of one sub-table. Built from its header by [`PairsDecoder::parse`]; the three
/// regions (sparse index, block lengths, blocks) are placed afterwards with
/// [`PairsDecoder::place`], since the file lists them after every sub-table's header.
#[derive(Debug)]
pub(crate) struct PairsDecoder {
    /// The sub-table's flags byte (DTZ flags; bit 7 for a single value).
    pub(crate) flags: u8,
    /// The number of indices (the table size).
    size: u64,
    stream: Stream,
}

/// Sizes of the three regions of a sub-table, in bytes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Regions {
    pub(crate) sparse: usize,
    pub(crate) lengths: usize,
    pub(crate) blocks: usize,
}

fn corrupt(why: &'static str) -> TableError {
    TableError::Corrupt(why)
}

impl PairsDecoder {
    /// Reads a sub-table header at the cursor, for a table of `size` indices.
    pub(crate) fn parse(cur: &mut Cursor<'_>, size: u64) -> Result<PairsDecoder, TableError> {
        let flags = cur.u8()?;
        if flags & 0x80 != 0 {
            let value = cur.u8()?;
            return Ok(PairsDecoder { flags, size, stream: Stream::Single(u16::from(value)) });
        }
        let block_bits = u32::from(cur.u8()?);
        let span_bits = u32::from(cur.u8()?);
        let padding = u32::from(cur.u8()?);
        let blocks = cur.u32_le()?;
        let max_len = cur.u8()?;
        let min_len = cur.u8()?;
        if !(1..=30).contains(&block_bits) || !(1..=40).contains(&span_bits) {
            return Err(corrupt("block or span size out of range"));
        }
        if min_len == 0 || max_len < min_len || max_len > MAX_CODE_BITS {
            return Err(corrupt("code lengths out of range"));
        }
        let lengths = usize::from(max_len - min_len) + 1;
        let mut first_symbol = Vec::with_capacity(lengths);
        for _ in 0..lengths {
            first_symbol.push(cur.u16_le()?);
        }
        let floor = code_floors(&first_symbol, u32::from(min_len))?;
        let symbols = usize::from(cur.u16_le()?);
        let tree_at = cur.skip(3 * symbols)?;
        cur.skip(symbols & 1)?;
        let raw = cur.bytes.slice(tree_at, 3 * symbols)?;
        let tree: Vec<(u16, u16)> = raw
            .chunks_exact(3)
            .map(|b| {
                let (b0, b1, b2) = (u16::from(b[0]), u16::from(b[1]), u16::from(b[2]));
                (b0 | (b1 & 0xf) << 8, b1 >> 4 | b2 << 4)
            })
            .collect();
        let spans = symbol_spans(&tree)?;
        let symbols = tree.iter().zip(spans).map(|(&(left, right), span)| Symbol { left, right, span }).collect();
        let codes = floor
            .iter()
            .zip(&first_symbol)
            .zip(min_len..)
            .map(|((&floor, &first_symbol), bits)| CodeLength { floor, first_symbol, bits })
            .collect::<Vec<_>>();
        let mut first_length = [0u8; 256];
        for (top, first) in first_length.iter_mut().enumerate() {
            // The largest window with these top bits decides the shortest length possible.
            let largest = (top as u64) << 56 | ((1u64 << 56) - 1);
            *first = codes.iter().position(|c| largest >= c.floor).unwrap_or(0) as u8;
        }
        let length_entries = blocks.checked_add(padding).ok_or(corrupt("block count"))?;
        Ok(PairsDecoder {
            flags,
            size,
            stream: Stream::Coded(Box::new(Coded {
                block_bits,
                span_bits,
                blocks,
                length_entries,
                codes,
                first_length,
                symbols,
                sparse_at: 0,
                lengths_at: 0,
                blocks_at: 0,
            })),
        })
    }

    /// Bytes of the sparse index, block lengths and blocks this sub-table takes.
    pub(crate) fn regions(&self) -> Result<Regions, TableError> {
        let Stream::Coded(c) = &self.stream else { return Ok(Regions::default()) };
        let entries = self.size.div_ceil(1u64 << c.span_bits);
        let too_big = || corrupt("table too large");
        let sparse = usize::try_from(entries).ok().and_then(|n| n.checked_mul(6)).ok_or_else(too_big)?;
        let lengths = usize::try_from(c.length_entries).ok().and_then(|n| n.checked_mul(2)).ok_or_else(too_big)?;
        let blocks =
            usize::try_from(c.blocks).ok().and_then(|n| n.checked_mul(1usize << c.block_bits)).ok_or_else(too_big)?;
        Ok(Regions { sparse, lengths, blocks })
    }

    /// Records where the sub-table's regions start in the file.
    pub(crate) fn place(&mut self, sparse_at: usize, lengths_at: usize, blocks_at: usize) {
        if let Stream::Coded(c) = &mut self.stream {
            c.sparse_at = sparse_at;
            c.lengths_at = lengths_at;
            c.blocks_at = blocks_at;
        }
    }

    /// The value at `index` (the number of indices is the size given to `parse`).
    pub(crate) fn value(&self, data: &[u8], index: u64) -> Result<u16, TableError> {
        if index >= self.size {
            return Err(corrupt("index out of range"));
        }
        match &self.stream {
            Stream::Single(v) => Ok(*v),
            Stream::Coded(c) => c.value(Bytes(data), index),
        }
    }
}

/// The smallest code of each length, left-aligned, from the first symbols of each length
/// (longer codes are numerically smaller; the longest starts at 0).
fn code_floors(first_symbol: &[u16], min_len: u32) -> Result<Vec<u64>, TableError> {
    let n = first_symbol.len();
    let mut floor = vec![0u64; n];
    for i in (0..n.saturating_sub(1)).rev() {
        let longer =
            first_symbol[i].checked_sub(first_symbol[i + 1]).ok_or(corrupt("code lengths not in canonical order"))?;
        floor[i] = (floor[i + 1] + u64::from(longer)) / 2;
    }
    for (i, f) in floor.iter_mut().enumerate() {
        let bits = min_len + i as u32;
        if *f >> bits != 0 {
            return Err(corrupt("code table overflows"));
        }
        *f <<= 64 - bits;
    }
    Ok(floor)
}

/// How many values each symbol stands for, by an explicit-stack walk of the tree. A cycle, a
/// child that is not a symbol, or a count past `u32` makes the table corrupt.
fn symbol_spans(tree: &[(u16, u16)]) -> Result<Vec<u32>, TableError> {
    let mut span = vec![0u32; tree.len()];
    let mut open = vec![false; tree.len()];
    let mut stack: Vec<usize> = Vec::new();
    for root in 0..tree.len() {
        if span[root] != 0 {
            continue;
        }
        open[root] = true;
        stack.push(root);
        while let Some(&s) = stack.last() {
            let (left, right) = tree[s];
            if right == LEAF {
                span[s] = 1;
            } else {
                let (l, r) = (usize::from(left), usize::from(right));
                if l >= tree.len() || r >= tree.len() {
                    return Err(corrupt("symbol tree refers past its end"));
                }
                if let Some(child) = [l, r].into_iter().find(|&c| span[c] == 0) {
                    if open[child] {
                        return Err(corrupt("symbol tree has a cycle"));
                    }
                    open[child] = true;
                    stack.push(child);
                    continue;
                }
                span[s] = span[l].checked_add(span[r]).ok_or(corrupt("symbol too long"))?;
            }
            open[s] = false;
            stack.pop();
        }
    }
    Ok(span)
}

/// Bits of one block, most significant first, in a 64-bit window refilled 32 bits at a time
/// (big-endian words). Bytes past the block read as zero; a reader that goes well past the
/// block reports corruption.
struct BitReader<'a> {
    block: &'a [u8],
    next: usize,
    window: u64,
    /// Valid bits at the top of `window`: at least 33 between codes.
    filled: u32,
}

impl<'a> BitReader<'a> {
    fn new(block: &'a [u8]) -> BitReader<'a> {
        let mut r = BitReader { block, next: 0, window: 0, filled: 0 };
        r.load_word();
        r.load_word();
        r
    }

    fn load_word(&mut self) {
        let word = match self.block.get(self.next..self.next + 4) {
            Some(b) => u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            None => {
                let byte = |i: usize| u32::from(self.block.get(self.next + i).copied().unwrap_or(0));
                byte(0) << 24 | byte(1) << 16 | byte(2) << 8 | byte(3)
            }
        };
        self.window |= u64::from(word) << (32 - self.filled);
        self.filled += 32;
        self.next += 4;
    }

    /// Drops a code of `bits` (at most 32) bits.
    fn consume(&mut self, bits: u32) -> Result<(), TableError> {
        self.window <<= bits;
        self.filled -= bits;
        if self.filled <= 32 {
            if self.next >= self.block.len() + 8 {
                return Err(corrupt("block ends inside its data"));
            }
            self.load_word();
        }
        Ok(())
    }
}

impl Coded {
    /// The number of values of `block`, which may be one of the padding entries.
    fn block_length(&self, bytes: Bytes<'_>, block: u32) -> Result<i64, TableError> {
        if block >= self.length_entries {
            return Err(corrupt("block number out of range"));
        }
        Ok(i64::from(bytes.u16_le(self.lengths_at + 2 * block as usize)?) + 1)
    }

    fn value(&self, bytes: Bytes<'_>, index: u64) -> Result<u16, TableError> {
        // The sparse entry tells where the middle index of its span lies.
        let entry = usize::try_from(index >> self.span_bits).map_err(|_| corrupt("index"))?;
        let at = self.sparse_at + 6 * entry;
        let mut block = bytes.u32_le(at)?;
        let half = 1i64 << (self.span_bits - 1);
        let in_span = (index & ((1u64 << self.span_bits) - 1)) as i64;
        let mut offset = i64::from(bytes.u16_le(at + 4)?) + in_span - half;
        while offset < 0 {
            block = block.checked_sub(1).ok_or(corrupt("sparse index points before the first block"))?;
            offset += self.block_length(bytes, block)?;
        }
        loop {
            let len = self.block_length(bytes, block)?;
            if offset < len {
                break;
            }
            offset -= len;
            block += 1;
        }
        // The length list may be padded past the last block; the value must be in a block.
        if block >= self.blocks {
            return Err(corrupt("index past the last block"));
        }
        let size = 1usize << self.block_bits;
        let start = (block as usize).checked_mul(size).and_then(|o| o.checked_add(self.blocks_at));
        let data = bytes.slice(start.ok_or(TableError::Truncated)?, size)?;
        let mut bits = BitReader::new(data);
        let mut offset = offset as u64;
        let no_symbol = || corrupt("code of no symbol");
        let mut sym = loop {
            // The longest code has floor 0, so a length is always found.
            let from = usize::from(self.first_length[(bits.window >> 56) as usize]);
            let code = self.codes[from..].iter().find(|c| bits.window >= c.floor).ok_or_else(no_symbol)?;
            let len = u32::from(code.bits);
            let n = u64::from(code.first_symbol) + ((bits.window - code.floor) >> (64 - len));
            let sym = usize::try_from(n).ok().and_then(|n| self.symbols.get(n)).ok_or_else(no_symbol)?;
            if offset < u64::from(sym.span) {
                break sym;
            }
            offset -= u64::from(sym.span);
            bits.consume(len)?;
        };
        // Down the symbol's tree to the value at the offset (children were checked at parse).
        loop {
            if sym.right == LEAF {
                return Ok(sym.left);
            }
            let left = self.symbols.get(usize::from(sym.left)).ok_or_else(no_symbol)?;
            if offset < u64::from(left.span) {
                sym = left;
            } else {
                offset -= u64::from(left.span);
                sym = self.symbols.get(usize::from(sym.right)).ok_or_else(no_symbol)?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_a_small_tree() {
        // 0, 1: values 7 and 9; 2 = (0, 1); 3 = (2, 2); 4 = (3, 0).
        let tree = [(7, LEAF), (9, LEAF), (0, 1), (2, 2), (3, 0)];
        assert_eq!(symbol_spans(&tree), Ok(vec![1, 1, 2, 4, 5]));
        let cyclic = [(1, 1), (0, 0)];
        assert!(symbol_spans(&cyclic).is_err());
        let outside = [(5, 0)];
        assert!(symbol_spans(&outside).is_err());
    }

    #[test]
    fn canonical_floors() {
        // Lengths 1..3: one 1-bit code, one 2-bit code, two 3-bit codes (symbols 0, 1 have 3
        // bits, 2 has 2, 3 has 1): 3-bit codes 000 001, 2-bit 01, 1-bit 1.
        let f = code_floors(&[3, 2, 0], 1).unwrap();
        assert_eq!(f, vec![1 << 63, 1 << 62, 0]);
        assert!(code_floors(&[0, 2], 1).is_err());
    }
}
