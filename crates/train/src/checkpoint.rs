//! Checkpoints of a run: the weights, Adam's state, the place in the schedule and the losses
//! of the epochs done, with the identity of the run they belong to, so that a resumed run
//! continues exactly and a checkpoint of another run is refused.
//!
//! The file is `MAGIC`, the format version (`u32`), the body's length (`u64`), the body and
//! the FNV-1a hash of the body (`u64`), all little-endian. The body holds the identity (a count
//! and `key`, `value` string pairs), the steps done (`u64`), the current epoch's summed
//! training error so far (`f64`), Adam's step count (`i32`), and the parameters, Adam's first
//! and second moments (each a `u64` count and that many `f32`). Version 2 adds the losses of
//! the epochs done: a `u64` count, then per epoch its number (`u64`), the training and the
//! validation loss (`f64`) and the learning rate (`f32`), NaN for a value not known. Version 1
//! files, which have no losses, are read with none. A checkpoint is
//! written to a temporary file that is then renamed over the old one, so an interruption
//! while writing leaves the last complete checkpoint in place.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::loss::{EpochLoss, LossHistory};

/// The first bytes of a checkpoint file.
const MAGIC: [u8; 8] = *b"CUTCKPT\n";

/// The version of the format written; it and [`VERSION_WITHOUT_LOSSES`] are read, another is
/// refused.
const VERSION: u32 = 2;

/// The version of the checkpoints without the losses of the epochs done.
const VERSION_WITHOUT_LOSSES: u32 = 1;

/// What must be the same for a checkpoint to continue a run: `key`, `value` pairs in the order
/// they were added (the arguments that shape the training, then the data).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Identity(Vec<(String, String)>);

impl Identity {
    pub(crate) fn push(&mut self, key: impl Into<String>, value: impl fmt::Display) {
        self.0.push((key.into(), value.to_string()));
    }

    /// The entries of the arguments alone, without those of the data (`data N`,
    /// `validation-data N` and the position counts), which a run knows only once it has read
    /// the data.
    pub(crate) fn arguments(&self) -> Identity {
        let data =
            |key: &str| key.starts_with("data ") || key.starts_with("validation-data ") || key.ends_with(" positions");
        Identity(self.0.iter().filter(|(key, _)| !data(key)).cloned().collect())
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// What differs between this run (`self`) and a checkpoint's (`there`), one line an entry:
    /// every key of `self`, and with `all` also the keys only `there` has.
    pub(crate) fn differences(&self, there: &Identity, all: bool) -> Vec<String> {
        let mut lines = Vec::new();
        for (key, here) in &self.0 {
            match there.get(key) {
                Some(value) if value == here => {}
                Some(value) => lines.push(format!("{key}: {here} here, {value} in the checkpoint")),
                None => lines.push(format!("{key}: {here} here, absent from the checkpoint")),
            }
        }
        if all {
            for (key, value) in &there.0 {
                if self.get(key).is_none() {
                    lines.push(format!("{key}: absent here, {value} in the checkpoint"));
                }
            }
        }
        lines
    }
}

/// The state of a run after `step` optimiser steps.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Checkpoint {
    pub(crate) identity: Identity,
    /// Optimiser steps done, counted over the whole schedule.
    pub(crate) step: u64,
    /// The summed training error of the batches of the current epoch done so far.
    pub(crate) train_error: f64,
    /// Adam's step count.
    pub(crate) adam_t: i32,
    /// The model's parameters (with a factoriser, its rows too).
    pub(crate) params: Vec<f32>,
    /// Adam's first moments.
    pub(crate) m: Vec<f32>,
    /// Adam's second moments.
    pub(crate) v: Vec<f32>,
    /// The losses of the epochs done.
    pub(crate) history: LossHistory,
}

/// Why a checkpoint cannot be read, written or resumed.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The file cannot be read or written.
    Io(PathBuf, io::Error),
    /// The file does not start with the checkpoint magic bytes.
    NotACheckpoint(PathBuf),
    /// The file is of another version of the format.
    Version(PathBuf, u32),
    /// The file is cut short, fails its checksum or does not parse.
    Damaged(PathBuf, &'static str),
    /// The checkpoint belongs to another run: what differs, one line an entry (`seed: 3 here,
    /// 1 in the checkpoint`).
    OtherRun(PathBuf, Vec<String>),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(path, e) => write!(f, "checkpoint {}: {e}", path.display()),
            CheckpointError::NotACheckpoint(path) => write!(f, "{} is not a training checkpoint", path.display()),
            CheckpointError::Version(path, v) => {
                let path = path.display();
                write!(
                    f,
                    "checkpoint {path}: format version {v}, this trainer reads versions {VERSION_WITHOUT_LOSSES} and {VERSION}"
                )
            }
            CheckpointError::Damaged(path, why) => write!(f, "checkpoint {} is damaged: {why}", path.display()),
            CheckpointError::OtherRun(path, lines) => {
                write!(f, "checkpoint {} is of another run:\n  {}", path.display(), lines.join("\n  "))
            }
        }
    }
}

impl std::error::Error for CheckpointError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckpointError::Io(_, e) => Some(e),
            _ => None,
        }
    }
}

/// FNV-1a, 64 bits: a checksum against damage, not against tampering.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

fn put_floats(out: &mut Vec<u8>, values: &[f32]) {
    out.extend((values.len() as u64).to_le_bytes());
    for x in values {
        out.extend(x.to_le_bytes());
    }
}

impl Checkpoint {
    /// The file's bytes (see the module docs).
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(64 + 12 * self.params.len());
        body.extend((self.identity.0.len() as u64).to_le_bytes());
        for (key, value) in &self.identity.0 {
            put_str(&mut body, key);
            put_str(&mut body, value);
        }
        body.extend(self.step.to_le_bytes());
        body.extend(self.train_error.to_le_bytes());
        body.extend(self.adam_t.to_le_bytes());
        for values in [&self.params, &self.m, &self.v] {
            put_floats(&mut body, values);
        }
        let epochs = self.history.epochs();
        body.extend((epochs.len() as u64).to_le_bytes());
        for e in epochs {
            body.extend((e.epoch as u64).to_le_bytes());
            body.extend(e.training.unwrap_or(f64::NAN).to_le_bytes());
            body.extend(e.validation.unwrap_or(f64::NAN).to_le_bytes());
            body.extend(e.lr.unwrap_or(f32::NAN).to_le_bytes());
        }
        let mut bytes = Vec::with_capacity(body.len() + 28);
        bytes.extend(MAGIC);
        bytes.extend(VERSION.to_le_bytes());
        bytes.extend((body.len() as u64).to_le_bytes());
        bytes.extend(&body);
        bytes.extend(checksum(&body).to_le_bytes());
        bytes
    }

    /// Parses a checkpoint's bytes; `path` names the file in errors.
    pub(crate) fn from_bytes(bytes: &[u8], path: &Path) -> Result<Checkpoint, CheckpointError> {
        let damaged = |why| CheckpointError::Damaged(path.to_owned(), why);
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(CheckpointError::NotACheckpoint(path.to_owned()));
        }
        let mut header = Reader { bytes: &bytes[8..] };
        let version = header.u32().map_err(damaged)?;
        if version != VERSION && version != VERSION_WITHOUT_LOSSES {
            return Err(CheckpointError::Version(path.to_owned(), version));
        }
        let len = usize::try_from(header.u64().map_err(damaged)?).map_err(|_| damaged("the body's length"))?;
        if header.bytes.len() != len.saturating_add(8) {
            return Err(damaged("its length is not the one recorded (cut short?)"));
        }
        let (body, sum) = header.bytes.split_at(len);
        if checksum(body).to_le_bytes() != sum {
            return Err(damaged("its checksum does not match"));
        }
        Reader { bytes: body }.checkpoint(version).map_err(damaged)
    }

    /// Writes the checkpoint to `path` through a temporary file renamed over it.
    pub(crate) fn write(&self, path: &Path) -> Result<(), CheckpointError> {
        let mut name = path.as_os_str().to_owned();
        name.push(".tmp");
        let temporary = PathBuf::from(name);
        let io = |e| CheckpointError::Io(path.to_owned(), e);
        let mut file = fs::File::create(&temporary).map_err(io)?;
        file.write_all(&self.to_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        fs::rename(&temporary, path).map_err(io)
    }

    /// Reads the checkpoint at `path`.
    pub(crate) fn read(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bytes = fs::read(path).map_err(|e| CheckpointError::Io(path.to_owned(), e))?;
        Checkpoint::from_bytes(&bytes, path)
    }
}

/// Reads the body's fields in order; every read checks the length.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], &'static str> {
        if self.bytes.len() < n {
            return Err("it ends inside a field");
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], &'static str> {
        self.take(N)?.try_into().map_err(|_| "it ends inside a field")
    }

    fn u32(&mut self) -> Result<u32, &'static str> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, &'static str> {
        self.array().map(u64::from_le_bytes)
    }

    /// A count of items of `size` bytes each, checked against the bytes left.
    fn count(&mut self, size: usize) -> Result<usize, &'static str> {
        let n = usize::try_from(self.u64()?).map_err(|_| "a count out of range")?;
        if n.checked_mul(size).is_none_or(|total| total > self.bytes.len()) {
            return Err("a count larger than the file");
        }
        Ok(n)
    }

    fn string(&mut self) -> Result<String, &'static str> {
        let n = self.count(1)?;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| "a string that is not UTF-8")
    }

    fn floats(&mut self) -> Result<Vec<f32>, &'static str> {
        let n = self.count(4)?;
        let bytes = self.take(n * 4)?;
        Ok(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
    }

    fn checkpoint(mut self, version: u32) -> Result<Checkpoint, &'static str> {
        let entries = self.count(16)?;
        let mut identity = Identity::default();
        for _ in 0..entries {
            let key = self.string()?;
            let value = self.string()?;
            identity.0.push((key, value));
        }
        let step = self.u64()?;
        let train_error = f64::from_le_bytes(self.array()?);
        let adam_t = i32::from_le_bytes(self.array()?);
        let params = self.floats()?;
        let m = self.floats()?;
        let v = self.floats()?;
        if m.len() != params.len() || v.len() != params.len() {
            return Err("Adam's moments and the parameters differ in length");
        }
        let mut history = LossHistory::default();
        if version != VERSION_WITHOUT_LOSSES {
            let known = |x: f64| (!x.is_nan()).then_some(x);
            for _ in 0..self.count(28)? {
                let epoch = usize::try_from(self.u64()?).map_err(|_| "an epoch out of range")?;
                if history.epochs().last().is_some_and(|last| last.epoch >= epoch) {
                    return Err("the epochs' losses are not in order");
                }
                let training = known(f64::from_le_bytes(self.array()?));
                let validation = known(f64::from_le_bytes(self.array()?));
                let lr = f32::from_le_bytes(self.array()?);
                history.push(EpochLoss { epoch, training, validation, lr: (!lr.is_nan()).then_some(lr) });
            }
        }
        if !self.bytes.is_empty() {
            return Err("bytes after the last field");
        }
        Ok(Checkpoint { identity, step, train_error, adam_t, params, m, v, history })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        let mut identity = Identity::default();
        identity.push("hidden", 16);
        identity.push("data 0", "games-0.bin (1234 bytes, 56 positions)");
        let mut history = LossHistory::default();
        history.push(EpochLoss { epoch: 1, training: Some(0.0071), validation: Some(0.0068), lr: Some(0.001) });
        history.push(EpochLoss { epoch: 2, training: Some(0.0062), validation: None, lr: Some(0.0005) });
        Checkpoint {
            identity,
            step: 7,
            train_error: 0.25,
            adam_t: 7,
            params: vec![0.5, -1.0, 2.0],
            m: vec![0.0, 1e-3, -2e-3],
            v: vec![1e-6, 0.0, 4e-6],
            history,
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let path = Path::new("test.ckpt");
        let written = sample();
        assert_eq!(Checkpoint::from_bytes(&written.to_bytes(), path).unwrap(), written);
    }

    #[test]
    fn a_checkpoint_of_the_first_version_reads_with_no_losses() {
        let path = Path::new("test.ckpt");
        let mut written = sample();
        written.history = LossHistory::default();
        // Version 2 of a history-less checkpoint is version 1's body and a count of 0 epochs.
        let bytes = written.to_bytes();
        let body = &bytes[20..bytes.len() - 8 - 8];
        let mut old = Vec::new();
        old.extend(MAGIC);
        old.extend(VERSION_WITHOUT_LOSSES.to_le_bytes());
        old.extend((body.len() as u64).to_le_bytes());
        old.extend(body);
        old.extend(checksum(body).to_le_bytes());
        assert_eq!(Checkpoint::from_bytes(&old, path).unwrap(), written);
        // The losses' count after the moments is refused in version 1 as bytes too many.
        let mut tagged = bytes.clone();
        tagged[8..12].copy_from_slice(&VERSION_WITHOUT_LOSSES.to_le_bytes());
        assert!(matches!(Checkpoint::from_bytes(&tagged, path), Err(CheckpointError::Damaged(_, _))));
    }

    #[test]
    fn a_damaged_checkpoint_is_refused_with_a_typed_error() {
        let path = Path::new("test.ckpt");
        let bytes = sample().to_bytes();
        // Every truncation, and every single flipped bit, is refused without a panic.
        for len in 0..bytes.len() {
            assert!(Checkpoint::from_bytes(&bytes[..len], path).is_err(), "cut to {len} bytes");
        }
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            let error = Checkpoint::from_bytes(&flipped, path).unwrap_err();
            match at {
                0..8 => assert!(matches!(error, CheckpointError::NotACheckpoint(_)), "{error}"),
                8..12 => assert!(matches!(error, CheckpointError::Version(_, _)), "{error}"),
                _ => assert!(matches!(error, CheckpointError::Damaged(_, _)), "byte {at}: {error}"),
            }
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(Checkpoint::from_bytes(&longer, path), Err(CheckpointError::Damaged(_, _))));
    }

    #[test]
    fn identities_name_what_differs() {
        let here = sample().identity;
        let mut there = Identity::default();
        there.push("hidden", 32);
        assert_eq!(
            here.differences(&there, false),
            [
                "hidden: 16 here, 32 in the checkpoint",
                "data 0: games-0.bin (1234 bytes, 56 positions) here, absent from the checkpoint"
            ]
        );
        there.push("limit", 5);
        assert_eq!(here.differences(&there, true).last().unwrap(), "limit: absent here, 5 in the checkpoint");
        assert!(here.differences(&here, true).is_empty());
    }
}
