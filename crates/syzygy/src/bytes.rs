//! A bounds-checked view of a table file: every read names an offset and returns
//! [`TableError::Truncated`] when the bytes are not there, never panics.

use crate::TableError;

/// Reads little- and big-endian numbers at offsets of a byte slice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bytes<'a>(pub(crate) &'a [u8]);

impl<'a> Bytes<'a> {
    /// `len` bytes from `at`.
    pub(crate) fn slice(self, at: usize, len: usize) -> Result<&'a [u8], TableError> {
        let end = at.checked_add(len).ok_or(TableError::Truncated)?;
        self.0.get(at..end).ok_or(TableError::Truncated)
    }

    fn array<const N: usize>(self, at: usize) -> Result<[u8; N], TableError> {
        let bytes = self.slice(at, N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    pub(crate) fn u8(self, at: usize) -> Result<u8, TableError> {
        self.0.get(at).copied().ok_or(TableError::Truncated)
    }

    pub(crate) fn u16_le(self, at: usize) -> Result<u16, TableError> {
        self.array(at).map(u16::from_le_bytes)
    }

    pub(crate) fn u32_le(self, at: usize) -> Result<u32, TableError> {
        self.array(at).map(u32::from_le_bytes)
    }
}

/// A read position moving forward through a [`Bytes`] view, for the header.
#[derive(Debug)]
pub(crate) struct Cursor<'a> {
    pub(crate) bytes: Bytes<'a>,
    pub(crate) at: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(data: &'a [u8], at: usize) -> Cursor<'a> {
        Cursor { bytes: Bytes(data), at }
    }

    pub(crate) fn u8(&mut self) -> Result<u8, TableError> {
        let v = self.bytes.u8(self.at)?;
        self.at += 1;
        Ok(v)
    }

    pub(crate) fn u16_le(&mut self) -> Result<u16, TableError> {
        let v = self.bytes.u16_le(self.at)?;
        self.at += 2;
        Ok(v)
    }

    pub(crate) fn u32_le(&mut self) -> Result<u32, TableError> {
        let v = self.bytes.u32_le(self.at)?;
        self.at += 4;
        Ok(v)
    }

    /// Skips `len` bytes that must exist; returns the offset where they start.
    pub(crate) fn skip(&mut self, len: usize) -> Result<usize, TableError> {
        let start = self.at;
        self.bytes.slice(start, len)?;
        self.at = start + len;
        Ok(start)
    }

    /// Rounds the position up to a multiple of `align` (a power of two).
    pub(crate) fn align(&mut self, align: usize) {
        self.at = self.at.next_multiple_of(align);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_checked() {
        let data = [1u8, 2, 3, 4, 5];
        let b = Bytes(&data);
        assert_eq!(b.u16_le(0), Ok(0x0201));
        assert_eq!(b.u32_le(1), Ok(0x0504_0302));
        assert_eq!(b.u32_le(2), Err(TableError::Truncated));
        assert_eq!(b.slice(usize::MAX, 2), Err(TableError::Truncated));
        let mut c = Cursor::new(&data, 3);
        assert_eq!(c.u16_le(), Ok(0x0504));
        assert_eq!(c.u8(), Err(TableError::Truncated));
        c.align(4);
        assert_eq!(c.at, 8);
    }
}
