//! Where the positions come from (files or memory), and their reading into the training and
//! validation sets, split by game.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use cutoff_games::GameReader;

use crate::data::{Dataset, Position};
use crate::error::TrainError;

/// Where a run's positions come from: a file, or positions held in memory.
///
/// ```
/// use cutoff_train::{Position, Source};
///
/// let from_disk = Source::file("games-0.bin");
/// let from_epd_text = Source::positions(
///     "two lines",
///     ["8/8/4k3/8/2R5/8/4K3/8 w - - c9 \"1-0\"; ce 700;", "4k3/8/8/8/8/8/4P3/4K3 w - - c9 \"1/2-1/2\";"]
///         .iter()
///         .map(|line| Position::from_epd(line).unwrap()),
/// );
/// assert_eq!(from_disk.name(), "games-0.bin");
/// assert_eq!(from_epd_text.name(), "two lines");
/// ```
#[derive(Clone, Debug)]
pub enum Source {
    /// A file of `cutoff datagen` games (the `cutoff-games` format, recognised by its magic
    /// bytes; the positions its reader keeps for training), or else EPD text, one position a
    /// line (see [`Position::from_epd`]; empty lines and lines starting with `#` are skipped).
    File(PathBuf),
    /// Games held in memory, each a list of positions: the validation split holds out whole
    /// games, so that no game has positions on both sides of it.
    Games {
        /// The source's name, for messages and checkpoints.
        name: String,
        /// The games.
        games: Vec<Vec<Position>>,
    },
}

impl Source {
    /// A data file: games or EPD.
    pub fn file(path: impl Into<PathBuf>) -> Source {
        Source::File(path.into())
    }

    /// Positions held in memory, each counted as a game of its own by the validation split.
    pub fn positions(name: impl Into<String>, positions: impl IntoIterator<Item = Position>) -> Source {
        Source::Games { name: name.into(), games: positions.into_iter().map(|p| vec![p]).collect() }
    }

    /// Games held in memory.
    pub fn games<G: IntoIterator<Item = Position>>(
        name: impl Into<String>,
        games: impl IntoIterator<Item = G>,
    ) -> Source {
        Source::Games { name: name.into(), games: games.into_iter().map(|g| g.into_iter().collect()).collect() }
    }

    /// The file's path as given, or the in-memory source's name.
    pub fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Games { name, .. } => name.clone(),
        }
    }
}

/// Names the sources for the first line of a run: all of them when they are few, else the
/// count, the first and the last, each file as given (the sets are told apart by their
/// folders, their files all being named `games-N.bin`).
pub(crate) fn describe_sources(sources: &[Source]) -> String {
    let shown: Vec<String> = sources.iter().map(Source::name).collect();
    match shown.as_slice() {
        [] => "no files".into(),
        [one] => one.clone(),
        [first, .., last] if shown.len() > 4 => format!("{} files ({first}, ..., {last})", shown.len()),
        all => format!("{} files ({})", all.len(), all.join(", ")),
    }
}

/// What [`load`] read from one source: its part of a run's identity (see `checkpoint`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SourceInfo {
    /// The file name without its folder (a resumed run may find the files elsewhere), or the
    /// in-memory source's name.
    pub(crate) name: String,
    /// The file's size in bytes; `None` in memory.
    pub(crate) bytes: Option<u64>,
    /// The positions read from it.
    pub(crate) positions: usize,
}

impl SourceInfo {
    /// The entry of a run's identity.
    pub(crate) fn describe(&self) -> String {
        match self.bytes {
            Some(bytes) => format!("{} ({bytes} bytes, {} positions)", self.name, self.positions),
            None => format!("{} (in memory, {} positions)", self.name, self.positions),
        }
    }
}

/// Reads the sources in order. Each position goes to `validation` if `held` holds for its
/// group (a game's number, or an EPD line's, counted over the sources), otherwise to
/// `training`; at most `limit` positions are read in all.
pub(crate) fn load(
    sources: &[Source],
    limit: Option<usize>,
    held: impl Fn(u32) -> bool,
    training: &mut Dataset,
    validation: &mut Dataset,
) -> Result<Vec<SourceInfo>, TrainError> {
    let mut reader = Reader { group: 0, count: 0, limit, held, training, validation };
    let mut infos = Vec::new();
    for source in sources {
        if reader.full() {
            break;
        }
        let before = reader.count;
        let (name, bytes) = match source {
            Source::File(path) => (file_name(path), Some(reader.file(path)?)),
            Source::Games { name, games } => {
                reader.games(name, games)?;
                (name.clone(), None)
            }
        };
        infos.push(SourceInfo { name, bytes, positions: reader.count - before });
    }
    Ok(infos)
}

/// A file's name without its folder.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into())
}

/// The state of a [`load`]: the group and position counts over all sources.
struct Reader<'a, H> {
    group: u32,
    count: usize,
    limit: Option<usize>,
    held: H,
    training: &'a mut Dataset,
    validation: &'a mut Dataset,
}

impl<H: Fn(u32) -> bool> Reader<'_, H> {
    fn full(&self) -> bool {
        self.limit.is_some_and(|l| self.count >= l)
    }

    /// The set the current group's positions go to.
    fn set(&mut self) -> &mut Dataset {
        if (self.held)(self.group) { &mut *self.validation } else { &mut *self.training }
    }

    /// Reads a file of games or EPD lines, streaming; returns its size.
    fn file(&mut self, path: &Path) -> Result<u64, TrainError> {
        let cannot = |error| TrainError::Read { path: path.to_owned(), error };
        let at = |why: String| TrainError::Data { at: path.display().to_string(), why };
        let opened = fs::File::open(path).map_err(cannot)?;
        let bytes = opened.metadata().map_err(cannot)?.len();
        let mut reader = BufReader::with_capacity(1 << 20, opened);
        let head = reader.fill_buf().map_err(cannot)?;
        if head.starts_with(&cutoff_games::MAGIC) {
            let games = GameReader::new(reader).map_err(|e| at(e.to_string()))?;
            'games: for game in games {
                let game = game.map_err(|e| at(e.to_string()))?;
                for p in game.positions() {
                    if self.full() {
                        break 'games;
                    }
                    self.set().push(&p.board, p.result, p.score.map(f32::from)).map_err(at)?;
                    self.count += 1;
                }
                self.group += 1;
            }
        } else {
            for (n, line) in reader.lines().enumerate() {
                let line = line.map_err(|error| match error.kind() {
                    std::io::ErrorKind::InvalidData => at("neither a game file nor EPD text".into()),
                    _ => TrainError::Read { path: path.to_owned(), error },
                })?;
                if line.trim().is_empty() || line.starts_with('#') {
                    continue;
                }
                if self.full() {
                    break;
                }
                let at = |why: String| TrainError::Data { at: format!("{}:{}", path.display(), n + 1), why };
                let p = Position::from_epd(&line).map_err(|e| at(e.to_string()))?;
                self.set().push(&p.board, p.result, p.score).map_err(at)?;
                self.count += 1;
                self.group += 1;
            }
        }
        Ok(bytes)
    }

    /// Reads games held in memory.
    fn games(&mut self, name: &str, games: &[Vec<Position>]) -> Result<(), TrainError> {
        'games: for game in games {
            for p in game {
                if self.full() {
                    break 'games;
                }
                let at = |why| TrainError::Data { at: name.to_owned(), why };
                self.set().push(&p.board, p.result, p.score).map_err(at)?;
                self.count += 1;
            }
            self.group += 1;
        }
        Ok(())
    }
}

/// Whether `group` is held out for validation: a hash of the group and the seed, so that the
/// split does not depend on the order of the files' games.
pub(crate) fn held_out(group: u32, seed: u64, share: f64) -> bool {
    let hash = cutoff_board::SplitMix64::new(seed ^ u64::from(group).wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64();
    (hash >> 11) as f64 / (1u64 << 53) as f64 <= share && share > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_names_few_files_and_summarises_many() {
        let paths = |n: usize| (0..n).map(|i| Source::file(format!("set-{i}/games-0.bin"))).collect::<Vec<_>>();
        assert_eq!(describe_sources(&[]), "no files");
        assert_eq!(describe_sources(&paths(1)), "set-0/games-0.bin");
        assert_eq!(describe_sources(&paths(2)), "2 files (set-0/games-0.bin, set-1/games-0.bin)");
        assert_eq!(
            describe_sources(&paths(4)),
            "4 files (set-0/games-0.bin, set-1/games-0.bin, set-2/games-0.bin, set-3/games-0.bin)"
        );
        assert_eq!(describe_sources(&paths(113)), "113 files (set-0/games-0.bin, ..., set-112/games-0.bin)");
    }

    #[test]
    fn the_validation_split_holds_out_whole_groups_at_the_share_asked() {
        let held = (0..20_000).filter(|&g| held_out(g, 7, 0.05)).count();
        assert!((800..1200).contains(&held), "{held} of 20000 groups held out at 5 %");
        assert!((0..1000).all(|g| held_out(g, 7, 0.05) == held_out(g, 7, 0.05)));
        assert!((0..1000).any(|g| held_out(g, 7, 0.05) != held_out(g, 8, 0.05)), "the seed changes the split");
        assert!(!(0..1000).any(|g| held_out(g, 7, 0.0)), "a share of 0 holds out nothing");
        assert!((0..1000).all(|g| held_out(g, 7, 1.0)), "a share of 1 holds out everything");
    }
}
