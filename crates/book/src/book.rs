//! The book: a sorted run of entries, searched by key.

use alloc::vec::Vec;
use core::fmt;

use cutoff_board::{Board, GenKind, Move, MoveList};

use crate::entry::decode_in;
use crate::{BookRng, Entry, polyglot_key};

/// A book move of a position: a legal move and its weight (see [`Book::entries`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, legal in the position it was probed for.
    pub mv: Move,
    /// The entry's weight; the sum of the weights if the book has several entries for the move.
    pub weight: u32,
    /// The learning field of the (first) entry.
    pub learn: u32,
}

/// Why a book could not be loaded.
///
/// ```
/// use cutoff_book::{Book, BookError};
/// let err = Book::from_bytes(vec![0; 20]).unwrap_err();
/// assert!(matches!(err, BookError::Size { len: 20 }));
/// assert_eq!(err.to_string(), "book is 20 bytes, not a multiple of the 16-byte Polyglot entry (truncated or not a Polyglot book?)");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum BookError {
    /// The file could not be read.
    #[cfg(feature = "std")]
    Io(std::io::Error),
    /// The path names a directory, a device, a pipe or a socket, not a regular file.
    #[cfg(feature = "std")]
    NotAFile,
    /// The file is larger than [`Book::MAX_FILE_LEN`].
    #[cfg(feature = "std")]
    TooLarge {
        /// The length in bytes.
        len: u64,
    },
    /// The length is not a multiple of the 16-byte entry: a truncated file, or not a book.
    Size {
        /// The length in bytes.
        len: usize,
    },
    /// The entries are not sorted by key, so binary search would miss moves: the entry at
    /// `index` (counting from 0) has a smaller key than the one before it.
    Unsorted {
        /// The index of the first entry out of order.
        index: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            #[cfg(feature = "std")]
            BookError::Io(e) => write!(f, "cannot read book: {e}"),
            #[cfg(feature = "std")]
            BookError::NotAFile => {
                f.write_str("book is not a regular file (a directory, a device, a pipe or a socket)")
            }
            #[cfg(feature = "std")]
            BookError::TooLarge { len } => {
                write!(f, "book is {len} bytes, more than the {} this engine reads", Book::MAX_FILE_LEN)
            }
            BookError::Size { len } => write!(
                f,
                "book is {len} bytes, not a multiple of the {}-byte Polyglot entry (truncated or not a Polyglot book?)",
                Entry::SIZE
            ),
            BookError::Unsorted { index } => {
                write!(f, "book entries are not sorted by key (entry {index} is lower than the one before it)")
            }
        }
    }
}

impl core::error::Error for BookError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            #[cfg(feature = "std")]
            BookError::Io(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(feature = "std")]
impl From<std::io::Error> for BookError {
    fn from(e: std::io::Error) -> BookError {
        BookError::Io(e)
    }
}

/// A Polyglot opening book, held in memory.
///
/// The whole file is kept as one `Vec<u8>` (16 bytes an entry, checked once when loaded: a
/// whole number of entries, sorted by key) and entries are decoded when probed, found by
/// binary search on the key: a probe costs about log2(entries) key reads plus one legal move
/// generation. A book of 1 million entries takes 16 MB. Memory mapping would save the copy
/// but needs `unsafe` or a dependency; reading the file is fast enough for a book loaded once.
///
/// ```
/// use cutoff_book::{Book, BookRng, Entry};
/// use cutoff_board::Board;
/// let board = Board::default();
/// let e4 = board.parse_uci("e2e4").unwrap();
/// let d4 = board.parse_uci("d2d4").unwrap();
/// let book = Book::from_entries([Entry::new(&board, e4, 3), Entry::new(&board, d4, 1)]);
/// assert_eq!(book.best(&board), Some(e4));
/// let mv = book.choose(&board, &mut BookRng::new(1)).unwrap();
/// assert!(mv == e4 || mv == d4);
/// // Bytes in, bytes out.
/// assert_eq!(Book::from_bytes(book.as_bytes()).unwrap(), book);
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Book {
    data: Vec<u8>,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book").field("entries", &self.len()).finish()
    }
}

impl Book {
    /// A book from the bytes of a Polyglot `.bin` file. Fails if the length is not a multiple
    /// of 16 or the keys are not in ascending order; entries whose moves do not decode are
    /// accepted here and skipped when probed. An empty input is an empty book.
    ///
    /// ```
    /// use cutoff_book::{Book, BookError, Entry};
    /// let mut bytes = Entry { key: 2, raw_move: 0x031c, weight: 1, learn: 0 }.to_bytes().to_vec();
    /// assert_eq!(Book::from_bytes(bytes.clone()).unwrap().len(), 1);
    /// bytes.extend(Entry { key: 1, raw_move: 0x031c, weight: 1, learn: 0 }.to_bytes());
    /// assert!(matches!(Book::from_bytes(bytes), Err(BookError::Unsorted { index: 1 })));
    /// assert!(Book::from_bytes([]).unwrap().is_empty());
    /// ```
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Result<Book, BookError> {
        let data = bytes.into();
        if data.len() % Entry::SIZE != 0 {
            return Err(BookError::Size { len: data.len() });
        }
        let book = Book { data };
        let mut previous = 0;
        for index in 0..book.len() {
            let key = book.key_at(index);
            if key < previous {
                return Err(BookError::Unsorted { index });
            }
            previous = key;
        }
        Ok(book)
    }

    /// Reads a Polyglot `.bin` file into memory (see [`Book::from_bytes`]). Only a regular file
    /// is opened (a FIFO would block, a device such as `/dev/zero` never ends), its size is
    /// checked before anything is read (a multiple of 16 bytes, at most [`Book::MAX_FILE_LEN`]),
    /// and no more than that size is read.
    ///
    /// ```
    /// use cutoff_book::{Book, BookError};
    /// let err = Book::open("/no/such/book.bin").unwrap_err();
    /// assert!(matches!(err, BookError::Io(_)));
    /// assert!(err.to_string().starts_with("cannot read book: "));
    /// assert!(matches!(Book::open(std::env::temp_dir()), Err(BookError::NotAFile)));
    /// if cfg!(unix) {
    ///     assert!(matches!(Book::open("/dev/zero"), Err(BookError::NotAFile)));
    /// }
    /// ```
    #[cfg(feature = "std")]
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Book, BookError> {
        use std::io::Read;
        let path = path.as_ref();
        // Look before opening: opening a FIFO blocks until a writer comes.
        if !std::fs::metadata(path)?.is_file() {
            return Err(BookError::NotAFile);
        }
        let file = std::fs::File::open(path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            return Err(BookError::NotAFile); // replaced since it was looked at
        }
        let len = usize::try_from(metadata.len()).unwrap_or(usize::MAX);
        if len > Book::MAX_FILE_LEN {
            return Err(BookError::TooLarge { len: metadata.len() });
        }
        if len % Entry::SIZE != 0 {
            return Err(BookError::Size { len });
        }
        let mut data = Vec::with_capacity(len);
        // One byte more than its size: a file that grew since is refused by the length check.
        file.take(len as u64 + 1).read_to_end(&mut data)?;
        Book::from_bytes(data)
    }

    /// The largest book file `Book::open` (feature `std`) reads: 2 GiB, 134 million entries. The largest
    /// published Polyglot books hold a few tens of millions of entries; a book is read into
    /// memory whole, so a larger file is refused rather than read.
    pub const MAX_FILE_LEN: usize = 1 << 31;

    /// A book made of `entries`, in any order: they are sorted by key, and by weight from the
    /// highest within a key, as Polyglot's `make-book` writes them. Write it out with
    /// [`Book::as_bytes`].
    ///
    /// ```
    /// use cutoff_book::{Book, Entry};
    /// let a = Entry { key: 9, raw_move: 0x031c, weight: 1, learn: 0 };
    /// let b = Entry { key: 9, raw_move: 0x02db, weight: 5, learn: 0 };
    /// let c = Entry { key: 3, raw_move: 0x0195, weight: 2, learn: 0 };
    /// let book = Book::from_entries([a, b, c]);
    /// assert_eq!(book.iter().collect::<Vec<_>>(), [c, b, a]);
    /// ```
    pub fn from_entries(entries: impl IntoIterator<Item = Entry>) -> Book {
        let mut entries: Vec<Entry> = entries.into_iter().collect();
        entries.sort_by(|a, b| a.key.cmp(&b.key).then(b.weight.cmp(&a.weight)));
        Book { data: entries.iter().flat_map(|e| e.to_bytes()).collect() }
    }

    /// The book in Polyglot's file format.
    ///
    /// ```
    /// use cutoff_book::{Book, Entry};
    /// let entry = Entry { key: 1, raw_move: 0x031c, weight: 2, learn: 0 };
    /// assert_eq!(Book::from_entries([entry]).as_bytes(), entry.to_bytes());
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    /// The number of entries.
    ///
    /// ```
    /// use cutoff_book::Book;
    /// assert_eq!(Book::from_bytes(vec![0; 64]).unwrap().len(), 4);
    /// ```
    pub fn len(&self) -> usize {
        self.data.len() / Entry::SIZE
    }

    /// Whether the book has no entries.
    ///
    /// ```
    /// use cutoff_book::Book;
    /// assert!(Book::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The entry at `index`, if there is one.
    ///
    /// ```
    /// use cutoff_book::{Book, Entry};
    /// let entry = Entry { key: 1, raw_move: 0x031c, weight: 2, learn: 0 };
    /// let book = Book::from_entries([entry]);
    /// assert_eq!(book.entry(0), Some(entry));
    /// assert_eq!(book.entry(1), None);
    /// ```
    pub fn entry(&self, index: usize) -> Option<Entry> {
        let bytes = self.data.get(index * Entry::SIZE..(index + 1) * Entry::SIZE)?;
        let mut array = [0; Entry::SIZE];
        array.copy_from_slice(bytes);
        Some(Entry::from_bytes(array))
    }

    /// Every entry, in file order.
    ///
    /// ```
    /// use cutoff_book::Book;
    /// assert_eq!(Book::from_bytes(vec![0; 32]).unwrap().iter().count(), 2);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = Entry> + '_ {
        (0..self.len()).filter_map(|i| self.entry(i))
    }

    /// The entries with key `key`, in file order, found by binary search. Their moves are not
    /// decoded or checked.
    ///
    /// ```
    /// use cutoff_book::{Book, Entry, polyglot_key};
    /// use cutoff_board::Board;
    /// let board = Board::default();
    /// let book = Book::from_entries([Entry::new(&board, board.parse_uci("e2e4").unwrap(), 1)]);
    /// assert_eq!(book.probe(polyglot_key(&board)).count(), 1);
    /// assert_eq!(book.probe(board.key()).count(), 0); // the engine's own key is another hash
    /// ```
    pub fn probe(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_at(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..self.len()).map_while(move |i| self.entry(i).filter(|e| e.key == key))
    }

    /// The book moves of `board`: every entry for its key whose move decodes to a legal move,
    /// highest weight first (entries of equal weight in file order). Entries with an illegal
    /// or undecodable move are skipped; several entries for one move become one [`BookMove`]
    /// with their weights added. Entries of weight 0 are listed (with weight 0), though
    /// [`Book::choose`] and [`Book::best`] never pick them.
    ///
    /// ```
    /// use cutoff_book::{Book, Entry};
    /// use cutoff_board::Board;
    /// let board = Board::default();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// let illegal = Entry { raw_move: 0x0324, ..Entry::new(&board, e4, 50) }; // e2e5
    /// let book = Book::from_entries([Entry::new(&board, e4, 2), illegal]);
    /// let moves = book.entries(&board);
    /// assert_eq!(moves.len(), 1);
    /// assert_eq!((moves[0].mv, moves[0].weight), (e4, 2));
    /// ```
    pub fn entries(&self, board: &Board) -> Vec<BookMove> {
        let mut found: Vec<BookMove> = Vec::new();
        let mut legal: Option<MoveList> = None;
        for entry in self.probe(polyglot_key(board)) {
            let legal = legal.get_or_insert_with(|| {
                let mut moves = MoveList::new();
                board.generate(GenKind::All, &mut moves);
                moves
            });
            let Some(mv) = decode_in(board, legal, entry.raw_move) else { continue };
            match found.iter_mut().find(|m| m.mv == mv) {
                Some(m) => m.weight = m.weight.saturating_add(u32::from(entry.weight)),
                None => found.push(BookMove { mv, weight: u32::from(entry.weight), learn: entry.learn }),
            }
        }
        found.sort_by_key(|m| core::cmp::Reverse(m.weight)); // stable: file order among equals
        found
    }

    /// A book move of `board` chosen at random with probability weight / total weight (as
    /// Polyglot and most GUIs do), or `None` if the position is not in the book or all its
    /// moves weigh 0. The choice depends only on the book, the position and `rng`: the same
    /// seed gives the same moves.
    ///
    /// ```
    /// use cutoff_book::{Book, BookRng, Entry};
    /// use cutoff_board::Board;
    /// let board = Board::default();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// let nf3 = board.parse_uci("g1f3").unwrap();
    /// let book = Book::from_entries([Entry::new(&board, e4, 3), Entry::new(&board, nf3, 1)]);
    /// let mut rng = BookRng::new(2024);
    /// let picks: Vec<_> = (0..1000).map(|_| book.choose(&board, &mut rng).unwrap()).collect();
    /// let e4_share = picks.iter().filter(|&&mv| mv == e4).count();
    /// assert!((650..850).contains(&e4_share)); // about 3 in 4
    /// ```
    pub fn choose(&self, board: &Board, rng: &mut BookRng) -> Option<Move> {
        let moves = self.entries(board);
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut pick = rng.below(total);
        for m in &moves {
            let weight = u64::from(m.weight);
            if pick < weight {
                return Some(m.mv);
            }
            pick -= weight;
        }
        None // unreachable: `pick` < `total`
    }

    /// The book move of `board` with the highest weight (the first of equals in file order),
    /// or `None` if the position is not in the book or all its moves weigh 0.
    ///
    /// ```
    /// use cutoff_book::{Book, Entry};
    /// use cutoff_board::Board;
    /// let board = Board::default();
    /// let d4 = board.parse_uci("d2d4").unwrap();
    /// let book = Book::from_entries([Entry::new(&board, board.parse_uci("e2e4").unwrap(), 1), Entry::new(&board, d4, 9)]);
    /// assert_eq!(book.best(&board), Some(d4));
    /// assert_eq!(book.best(&Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", cutoff_board::CastlingMode::Standard).unwrap()), None);
    /// ```
    pub fn best(&self, board: &Board) -> Option<Move> {
        self.entries(board).first().filter(|m| m.weight > 0).map(|m| m.mv)
    }

    fn key_at(&self, index: usize) -> u64 {
        let start = index * Entry::SIZE;
        let mut key = [0; 8];
        key.copy_from_slice(&self.data[start..start + 8]);
        u64::from_be_bytes(key)
    }
}
