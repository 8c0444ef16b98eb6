#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod bytes;
mod index;
mod material;
mod pairs;
mod probe;
mod tablefile;

use std::fmt;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use cutoff_board::{Board, Color, Move};
use memmap2::Mmap;

use material::Material;
use probe::Fail;
use tablefile::{Kind, Placed, Stored, TableFile};

/// The most pieces (kings included) a Syzygy table can have.
pub const MAX_PIECES: usize = material::MAX_PIECES;

/// The value of a position in the WDL tables, from the side to move's point of view.
///
/// "Cursed" and "blessed" are wins and losses that take more than 50 moves without a capture
/// or pawn move, so the fifty-move rule makes them draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but saved by the fifty-move rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but not within the fifty-move rule.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// From the tables' numbers: -2 (loss) to 2 (win).
    ///
    /// ```
    /// use cutoff_syzygy::Wdl;
    /// assert_eq!(Wdl::from_i32(1), Some(Wdl::CursedWin));
    /// assert_eq!(Wdl::from_i32(3), None);
    /// ```
    pub fn from_i32(v: i32) -> Option<Wdl> {
        Some(match v {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => return None,
        })
    }

    /// -2 (loss) to 2 (win).
    ///
    /// ```
    /// use cutoff_syzygy::Wdl;
    /// assert_eq!(Wdl::BlessedLoss.to_i32(), -1);
    /// ```
    pub fn to_i32(self) -> i32 {
        self as i32 - 2
    }

    /// The value for the other side.
    ///
    /// ```
    /// use cutoff_syzygy::Wdl;
    /// assert_eq!(Wdl::CursedWin.flip(), Wdl::BlessedLoss);
    /// ```
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// Why one table file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The file ends before the data its header describes.
    Truncated,
    /// The file does not start with the magic number of its kind (`.rtbw` or `.rtbz`).
    BadMagic,
    /// The header does not describe a valid table, or data cannot be decoded.
    Corrupt(&'static str),
    /// The file could not be read.
    Io(std::io::ErrorKind),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Truncated => write!(f, "truncated file"),
            TableError::BadMagic => write!(f, "not a Syzygy table (bad magic number)"),
            TableError::Corrupt(why) => write!(f, "corrupt table ({why})"),
            TableError::Io(kind) => write!(f, "cannot read ({kind})"),
        }
    }
}

impl std::error::Error for TableError {}

/// A problem found while opening or using the tables. None of them stops the others from
/// being used: the tables concerned are left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// A directory of the path does not exist or cannot be listed.
    Directory {
        /// The directory.
        path: PathBuf,
        /// What the operating system said.
        kind: std::io::ErrorKind,
    },
    /// A table file cannot be used.
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        error: TableError,
    },
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Directory { path, kind } => {
                write!(f, "cannot read tablebase directory {}: {kind}", path.display())
            }
            TbError::File { path, error } => write!(f, "{}: {error}, left out", path.display()),
        }
    }
}

impl std::error::Error for TbError {}

/// A table file, mapped into memory.
type Table = TableFile<Mmap>;

/// One material's tables, mapped and parsed on first use.
struct Entry {
    name: String,
    material: Material,
    wdl_path: PathBuf,
    dtz_path: Option<PathBuf>,
    wdl: OnceLock<Option<Table>>,
    dtz: OnceLock<Option<Table>>,
}

/// A position as its table sees it: the pieces in the table's colours and squares, and the
/// side to move there (0 white, 1 black).
struct Found<'a> {
    entry: &'a Entry,
    table: &'a Table,
    pieces: [Placed; MAX_PIECES],
    len: usize,
    side: usize,
}

/// Maps a table file into memory.
#[allow(unsafe_code)]
fn map_file(file: &fs::File) -> std::io::Result<Mmap> {
    // SAFETY: `Mmap::map` is unsafe because the mapped bytes change if the file is modified
    // (or truncated) while mapped. The file is opened read-only, and tablebase files are not
    // modified while the engine runs. Even if one were, every read of the map goes through a
    // bounds-checked view (`bytes::Bytes`) and no reference into it outlives a probe, so a
    // changed file gives wrong values or errors, never an out-of-bounds read.
    unsafe { Mmap::map(file) }
}

/// Syzygy tablebases: the WDL (`.rtbw`) and DTZ (`.rtbz`) files found in some directories.
///
/// Opening only lists and checks the files (size and magic number); a table is mapped into
/// memory and its header parsed on its first probe, by whichever thread probes it first (the
/// others wait for it); only the pages that probes touch are read from the disk. Probing takes `&self` and the type is `Sync`: share one `Tablebases`
/// between search threads (for example in an `Arc`).
///
/// ```
/// use cutoff_board::Board;
/// use cutoff_syzygy::{Tablebases, Wdl};
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy");
/// let tb = Tablebases::open([dir]);
/// assert!(tb.problems().is_empty());
/// assert_eq!(tb.max_pieces(), 4);
/// let krk = Board::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Default::default()).unwrap();
/// assert_eq!(tb.probe_wdl(&krk), Some(Wdl::Win));
/// ```
pub struct Tablebases {
    entries: Vec<Entry>,
    /// `(material key, entry)` for both colourings of each table, sorted by key.
    index: Vec<(u64, usize)>,
    max_pieces: usize,
    problems: Vec<TbError>,
    /// Problems found when a table was first used or decoded; see [`Tablebases::take_new_problems`].
    late_problems: Mutex<Vec<TbError>>,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebases")
            .field("wdl", &self.entries.len())
            .field("dtz", &self.num_dtz())
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

/// Checks that a file exists, is readable and starts with `magic`; Syzygy files are 16 bytes
/// more than a multiple of 64 long.
fn check_file(path: &Path, magic: [u8; 4]) -> Result<(), TableError> {
    let mut file = fs::File::open(path).map_err(|e| TableError::Io(e.kind()))?;
    let len = file.metadata().map_err(|e| TableError::Io(e.kind()))?.len();
    if len % 64 != 16 {
        return Err(TableError::Truncated);
    }
    let mut head = [0u8; 4];
    file.read_exact(&mut head).map_err(|_| TableError::Truncated)?;
    if head != magic {
        return Err(TableError::BadMagic);
    }
    Ok(())
}

impl Tablebases {
    /// The tables in `dirs`. Never fails: a directory that cannot be read, or a file that is
    /// not a usable table, is listed in [`problems`](Tablebases::problems) and left out. When
    /// a table is in several directories, the first one is used.
    ///
    /// ```
    /// use cutoff_syzygy::{Tablebases, TbError};
    /// let tb = Tablebases::open(["/no/such/directory"]);
    /// assert_eq!(tb.num_wdl(), 0);
    /// assert!(matches!(tb.problems()[0], TbError::Directory { .. }));
    /// ```
    pub fn open<P: AsRef<Path>>(dirs: impl IntoIterator<Item = P>) -> Tablebases {
        let mut tb = Tablebases {
            entries: Vec::new(),
            index: Vec::new(),
            max_pieces: 0,
            problems: Vec::new(),
            late_problems: Mutex::new(Vec::new()),
        };
        for dir in dirs {
            tb.add_directory(dir.as_ref());
        }
        tb.index.sort_unstable_by_key(|&(key, _)| key);
        tb
    }

    /// The tables of a UCI `SyzygyPath` value: directories separated by `:` (`;` on Windows),
    /// as [`std::env::split_paths`] splits them. Empty parts are skipped.
    ///
    /// ```
    /// use cutoff_syzygy::Tablebases;
    /// let tb = Tablebases::open_path("");
    /// assert_eq!((tb.num_wdl(), tb.problems().len()), (0, 0));
    /// ```
    pub fn open_path(path: &str) -> Tablebases {
        Tablebases::open(std::env::split_paths(path).filter(|p| !p.as_os_str().is_empty()))
    }

    fn add_directory(&mut self, dir: &Path) {
        let listing = match fs::read_dir(dir) {
            Ok(listing) => listing,
            Err(e) => {
                self.problems.push(TbError::Directory { path: dir.to_path_buf(), kind: e.kind() });
                return;
            }
        };
        let mut names: Vec<(String, PathBuf)> = listing
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rtbw"))
            .filter_map(|p| Some((p.file_stem()?.to_str()?.to_owned(), p)))
            .collect();
        names.sort();
        for (name, wdl_path) in names {
            let Some(material) = Material::from_name(&name) else { continue };
            let key = material.key;
            if self.entry(key).is_some() {
                continue;
            }
            if let Err(error) = check_file(&wdl_path, tablefile::WDL_MAGIC) {
                self.problems.push(TbError::File { path: wdl_path, error });
                continue;
            }
            let dtz = wdl_path.with_extension("rtbz");
            let dtz_path = if dtz.exists() {
                match check_file(&dtz, tablefile::DTZ_MAGIC) {
                    Ok(()) => Some(dtz),
                    Err(error) => {
                        self.problems.push(TbError::File { path: dtz, error });
                        None
                    }
                }
            } else {
                None
            };
            self.max_pieces = self.max_pieces.max(material.pieces);
            let id = self.entries.len();
            self.index.push((key, id));
            if material.swapped_key != key {
                self.index.push((material.swapped_key, id));
            }
            self.entries.push(Entry { name, material, wdl_path, dtz_path, wdl: OnceLock::new(), dtz: OnceLock::new() });
            // Keep the index searchable while adding (duplicates across directories).
            self.index.sort_unstable_by_key(|&(key, _)| key);
        }
    }

    fn entry(&self, key: u64) -> Option<&Entry> {
        let i = self.index.binary_search_by_key(&key, |&(k, _)| k).ok()?;
        self.entries.get(self.index[i].1)
    }

    /// The loaded table of `kind` for `entry`, loading it on first use. `None` if it is missing
    /// or broken (reported once in the late problems).
    fn table<'a>(&'a self, entry: &'a Entry, kind: Kind) -> Option<&'a Table> {
        let (cell, path) = match kind {
            Kind::Wdl => (&entry.wdl, Some(&entry.wdl_path)),
            Kind::Dtz => (&entry.dtz, entry.dtz_path.as_ref()),
        };
        let path = path?;
        cell.get_or_init(|| {
            let loaded = fs::File::open(path)
                .and_then(|file| map_file(&file))
                .map_err(|e| TableError::Io(e.kind()))
                .and_then(|map| Table::parse(map, kind, &entry.material));
            match loaded {
                Ok(table) => Some(table),
                Err(error) => {
                    self.report(TbError::File { path: path.clone(), error });
                    None
                }
            }
        })
        .as_ref()
    }

    fn report(&self, problem: TbError) {
        if let Ok(mut late) = self.late_problems.lock()
            && !late.contains(&problem)
        {
            late.push(problem);
        }
    }

    fn report_decode_error(&self, entry: &Entry, kind: Kind, error: TableError) {
        let path = match kind {
            Kind::Wdl => entry.wdl_path.clone(),
            Kind::Dtz => entry.dtz_path.clone().unwrap_or_default(),
        };
        self.report(TbError::File { path, error });
    }

    /// The table of `kind` for the position's material and the position as the table sees
    /// it (section 3 of `docs/syzygy-format.md`). `Ok(None)`: only kings are left.
    fn lookup(&self, board: &Board, kind: Kind) -> Result<Option<Found<'_>>, Fail> {
        let key = material::key(&material::counts_of(board));
        if key == 0 {
            return Ok(None);
        }
        let entry = self.entry(key).ok_or(Fail::Missing)?;
        let table = match kind {
            Kind::Dtz if entry.dtz_path.is_none() => return Err(Fail::Missing),
            _ => self.table(entry, kind).ok_or(Fail::Broken)?,
        };
        let black_to_move = board.side_to_move() == Color::Black;
        let swap = key != entry.material.key || (entry.material.symmetric() && black_to_move);
        let mut pieces = [Placed::default(); MAX_PIECES];
        let mut len = 0;
        for sq in board.occupied() {
            let (Some(piece), Some(slot)) = (board.piece_on(sq), pieces.get_mut(len)) else {
                return Err(Fail::Missing);
            };
            let white = (piece.color() == Color::White) != swap;
            let code = u8::from(!white) << 3 | (piece.kind().index() as u8 + 1);
            *slot = Placed { code, square: sq.index() as u8 ^ if swap { 56 } else { 0 } };
            len += 1;
        }
        Ok(Some(Found { entry, table, pieces, len, side: usize::from(black_to_move != swap) }))
    }

    /// The stored WDL value (-2..2) of a position, without looking at its moves.
    pub(crate) fn stored_wdl(&self, board: &Board) -> Result<i32, Fail> {
        let Some(f) = self.lookup(board, Kind::Wdl)? else { return Ok(0) };
        match f.table.wdl(&f.pieces[..f.len], f.side) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(Fail::Missing),
            Err(error) => {
                self.report_decode_error(f.entry, Kind::Wdl, error);
                Err(Fail::Broken)
            }
        }
    }

    /// What the DTZ table stores for a position whose outcome is `wdl` (not a draw).
    pub(crate) fn stored_dtz(&self, board: &Board, wdl: i32) -> Result<Stored, Fail> {
        let Some(f) = self.lookup(board, Kind::Dtz)? else { return Err(Fail::Missing) };
        match f.table.dtz(&f.pieces[..f.len], f.side, wdl) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(Fail::Missing),
            Err(error) => {
                self.report_decode_error(f.entry, Kind::Dtz, error);
                Err(Fail::Broken)
            }
        }
    }

    /// The problems found by [`open`](Tablebases::open).
    pub fn problems(&self) -> &[TbError] {
        &self.problems
    }

    /// Problems found since the last call, when tables were first read or could not be decoded
    /// during probes (a file truncated or corrupt past its first bytes). The probes concerned
    /// returned `None`.
    ///
    /// ```
    /// let tb = cutoff_syzygy::Tablebases::open_path("");
    /// assert!(tb.take_new_problems().is_empty());
    /// ```
    pub fn take_new_problems(&self) -> Vec<TbError> {
        self.late_problems.lock().map(|mut late| std::mem::take(&mut *late)).unwrap_or_default()
    }

    /// The most pieces (kings included) of the tables found; 0 when there are none.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Number of WDL tables found.
    pub fn num_wdl(&self) -> usize {
        self.entries.len()
    }

    /// Number of DTZ tables found.
    pub fn num_dtz(&self) -> usize {
        self.entries.iter().filter(|e| e.dtz_path.is_some()).count()
    }

    /// The names of the WDL tables found (`KQvKR`), in the order they were found.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }

    fn probeable(&self, board: &Board) -> bool {
        board.castling_rights().is_empty() && board.occupied().len() as usize <= self.max_pieces
    }

    /// The WDL value of the position for the side to move, en passant included, the fifty-move
    /// counter not (a cursed win is [`Wdl::CursedWin`] whatever the counter). `None` when the
    /// position has castling rights or more pieces than the tables, when its table is missing,
    /// or when the table is broken.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_syzygy::{Tablebases, Wdl};
    /// let tb = Tablebases::open([concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy")]);
    /// let krkr = Board::from_fen("8/8/4k3/8/2r5/8/3RK3/8 w - - 0 1", Default::default()).unwrap();
    /// assert_eq!(tb.probe_wdl(&krkr), Some(Wdl::Draw));
    /// ```
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if !self.probeable(board) {
            return None;
        }
        Wdl::from_i32(probe::resolve(self, board, false).ok()?.wdl)
    }

    /// The DTZ value of the position: 0 for a draw; for a win, a positive number of plies to
    /// the next capture or pawn move (or mate) with best play, for a loss the negative; values
    /// above 100 in absolute terms are cursed wins or blessed losses. As in Stockfish and
    /// python-chess, a value may be one more than the exact distance when the table stores
    /// it rounded (never for a position where that would change the fifty-move outcome). `None`
    /// as for [`probe_wdl`](Tablebases::probe_wdl), or when the DTZ table is missing (or the
    /// table of a position a capture or pawn move leads to).
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_syzygy::Tablebases;
    /// let tb = Tablebases::open([concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy")]);
    /// let mate_in_one = Board::from_fen("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", Default::default()).unwrap();
    /// assert_eq!(tb.probe_dtz(&mate_in_one), Some(1));
    /// ```
    pub fn probe_dtz(&self, board: &Board) -> Option<i32> {
        if !self.probeable(board) {
            return None;
        }
        probe::dtz(self, board).ok()
    }

    /// Every legal move of the position with its DTZ value from the mover's side, counted from
    /// the position: positive wins (1 = mate or winning capture/pawn move at once, otherwise
    /// the plies to the next zeroing move), 0 draws, negative losses (-1: lost at once). Use
    /// [`root_rank`] to turn it into a preference that respects the fifty-move rule. `None` as
    /// for [`probe_dtz`](Tablebases::probe_dtz), or when a table is missing for a move.
    ///
    /// ```
    /// use cutoff_board::Board;
    /// use cutoff_syzygy::Tablebases;
    /// let tb = Tablebases::open([concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy")]);
    /// let board = Board::from_fen("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", Default::default()).unwrap();
    /// let ranked = tb.rank_root_moves(&board).unwrap();
    /// let mate = board.parse_uci("a1a8").unwrap();
    /// assert_eq!(ranked.iter().find(|(mv, _)| *mv == mate).unwrap().1, 1);
    /// ```
    pub fn rank_root_moves(&self, board: &Board) -> Option<Vec<(Move, i32)>> {
        if !self.probeable(board) {
            return None;
        }
        probe::root_values(self, board).ok()
    }
}

/// The preference of a root move with DTZ value `dtz` (from [`Tablebases::rank_root_moves`])
/// when the fifty-move counter stands at `halfmove_clock`: higher is better. A win within the
/// fifty-move rule ranks above a cursed win (one that would take too long: only a win if
/// `rule50` is false), above a draw, above a blessed loss, above a loss; among wins the shorter
/// DTZ ranks higher, among losses the longer. Returns the rank and the outcome under the rule.
///
/// ```
/// use cutoff_syzygy::{root_rank, Wdl};
/// assert!(root_rank(3, 0, true).0 > root_rank(5, 0, true).0);
/// assert_eq!(root_rank(60, 50, true).1, Wdl::CursedWin);
/// assert_eq!(root_rank(60, 50, false).1, Wdl::Win);
/// assert!(root_rank(-7, 0, true).0 > root_rank(-3, 0, true).0);
/// assert_eq!(root_rank(0, 0, true), (0, Wdl::Draw));
/// ```
pub fn root_rank(dtz: i32, halfmove_clock: u16, rule50: bool) -> (i32, Wdl) {
    const BIG: i32 = 1 << 20;
    let cnt = i32::from(halfmove_clock);
    let within = |d: i32| !rule50 || d + cnt <= 100;
    match dtz {
        0 => (0, Wdl::Draw),
        d if d > 0 && within(d) => (2 * BIG - d, Wdl::Win),
        d if d > 0 => (BIG - d, Wdl::CursedWin),
        d if within(-d) => (-2 * BIG - d, Wdl::Loss),
        d => (-BIG - d, Wdl::BlessedLoss),
    }
}
