//! The evaluation network: the one embedded in the binary, and those `EvalFile` loads.

use std::fmt;
use std::fs::{self, File};
use std::io::Read;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use cutoff_nnue::{Network, NetworkError};

/// The bytes of the embedded network (empty when the build embeds none; see `build.rs`).
static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));

/// Whether a new engine evaluates with the embedded network (`UseNNUE`'s default). On since
/// `net5` beat the hand-crafted evaluation by the margin `docs/nnue.md` asks for (400 games at
/// 10+0.1; the embedded network is `net11` since); `UseNNUE false` selects the hand-crafted
/// evaluation.
pub const USE_NNUE_DEFAULT: bool = true;

/// The network embedded in the binary, if the build has one (parsed once, then shared).
///
/// ```
/// // A build embeds a valid network, or no bytes at all: bytes that do not parse fail here.
/// assert_eq!(cutoff_uci::embedded_network().is_some(), cutoff_uci::embeds_network());
/// if let Some(net) = cutoff_uci::embedded_network() {
///     assert!(net.hidden() >= 16);
/// }
/// ```
pub fn embedded_network() -> Option<Arc<Network>> {
    static PARSED: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    PARSED
        .get_or_init(|| {
            if EMBEDDED.is_empty() {
                return None;
            }
            match Network::from_bytes(EMBEDDED) {
                Ok(net) => Some(Arc::new(net)),
                Err(e) => {
                    log::error!("the embedded network is not valid ({e}); using the hand-crafted evaluation");
                    None
                }
            }
        })
        .clone()
}

/// Whether the build embedded a network file (`networks/default.nnue`, or `CUTOFF_EVALFILE`),
/// valid or not; [`embedded_network`] is `Some` exactly when it did and the file is valid.
///
/// ```
/// // This repository commits networks/default.nnue, so its builds embed it.
/// let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("networks/default.nnue");
/// assert_eq!(cutoff_uci::embeds_network(), committed.exists() || option_env!("CUTOFF_EVALFILE").is_some());
/// ```
pub fn embeds_network() -> bool {
    !EMBEDDED.is_empty()
}

/// The network a new engine evaluates with: the embedded one if [`USE_NNUE_DEFAULT`], else
/// none (the hand-crafted evaluation).
pub fn default_network() -> Option<Arc<Network>> {
    if USE_NNUE_DEFAULT { embedded_network() } else { None }
}

/// Why a network file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The path names a directory, a device, a pipe or a socket, not a regular file.
    NotAFile,
    /// The file is not a valid network.
    Network(NetworkError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read it: {e}"),
            LoadError::NotAFile => f.write_str("not a regular file (a directory, a device, a pipe or a socket)"),
            LoadError::Network(e) => write!(f, "not a valid network: {e}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io(e) => Some(e),
            LoadError::NotAFile => None,
            LoadError::Network(e) => Some(e),
        }
    }
}

/// Reads a network file. Only a regular file is opened (a FIFO would block, a device such as
/// `/dev/zero` never ends), and no more is read than its header announces: a file of another
/// length is refused after its first [`Network::HEADER_LEN`] bytes.
///
/// ```
/// use cutoff_uci::{LoadError, load_network};
/// assert!(matches!(load_network("no/such/file.nnue"), Err(LoadError::Io(_))));
/// assert!(matches!(load_network(std::env::temp_dir()), Err(LoadError::NotAFile)));
/// if cfg!(unix) {
///     assert!(matches!(load_network("/dev/zero"), Err(LoadError::NotAFile)));
/// }
/// ```
pub fn load_network(path: impl AsRef<Path>) -> Result<Network, LoadError> {
    let path = path.as_ref();
    // Look before opening: opening a FIFO blocks until a writer comes, and a device such as
    // /dev/zero never ends.
    if !fs::metadata(path).map_err(LoadError::Io)?.is_file() {
        return Err(LoadError::NotAFile);
    }
    let file = File::open(path).map_err(LoadError::Io)?;
    let metadata = file.metadata().map_err(LoadError::Io)?;
    if !metadata.is_file() {
        return Err(LoadError::NotAFile); // replaced since it was looked at
    }
    let size = metadata.len();
    // The header says how long the file must be; read that much and no more.
    let mut reader = file.take(Network::MAX_FILE_LEN as u64 + 1);
    let mut bytes = Vec::with_capacity(Network::HEADER_LEN);
    (&mut reader).take(Network::HEADER_LEN as u64).read_to_end(&mut bytes).map_err(LoadError::Io)?;
    let expected = Network::file_len(&bytes).map_err(LoadError::Network)?;
    if size != expected as u64 {
        let found = usize::try_from(size).unwrap_or(usize::MAX);
        return Err(LoadError::Network(NetworkError::WrongLength { expected, found }));
    }
    bytes.reserve_exact(expected - bytes.len());
    // One byte more than expected: a file that grew since its size was read is refused too.
    (&mut reader).take((expected + 1 - bytes.len()) as u64).read_to_end(&mut bytes).map_err(LoadError::Io)?;
    Network::from_bytes(&bytes).map_err(LoadError::Network)
}

/// A one-line description of a network, for `info string`: `(768 -> N) x 2 -> B`, or with king
/// buckets `(K x 768 -> N) x 2 -> B`, and `, mirrored` when the layout mirrors.
pub(crate) fn describe(net: &Network) -> String {
    let layout = net.king_buckets();
    let inputs = if layout.count() == 1 { "768".to_string() } else { format!("{} x 768", layout.count()) };
    let mirrored = if layout.mirrored() { ", mirrored" } else { "" };
    format!("({inputs} -> {}) x 2 -> {}{mirrored}", net.hidden(), net.output_buckets())
}

/// `UseNNUE` and `EvalFile`: the network they select, and the built-in one.
pub(crate) struct Networks {
    /// `UseNNUE`: evaluate with `selected` (when there is one).
    pub(crate) use_nnue: bool,
    /// The network `EvalFile` selected: the built-in one by default, if there is one.
    pub(crate) selected: Option<Arc<Network>>,
    /// The built-in network (the binary's embedded one, if any), which `EvalFile <empty>`
    /// selects.
    embedded: Option<Arc<Network>>,
}

impl Networks {
    /// The defaults: `UseNNUE` as [`USE_NNUE_DEFAULT`], `EvalFile` the built-in network.
    pub(crate) fn new(embedded: Option<Arc<Network>>) -> Networks {
        Networks { use_nnue: USE_NNUE_DEFAULT, selected: embedded.clone(), embedded }
    }

    /// The network the engine evaluates with: the selected one with `UseNNUE` on, else none.
    pub(crate) fn in_use(&self) -> Option<Arc<Network>> {
        if self.use_nnue { self.selected.clone() } else { None }
    }
}

/// The setters of `UseNNUE` and `EvalFile` (see `options.rs`).
impl crate::Uci {
    /// Gives the engine the network in use.
    fn apply_network(&mut self) {
        let network = self.networks.in_use();
        self.with_engine(|e| e.set_network(network));
    }

    /// `UseNNUE`.
    pub(crate) fn set_use_nnue(&mut self, on: bool) {
        self.networks.use_nnue = on;
        if on && self.networks.selected.is_none() {
            self.info("UseNNUE: no network is loaded (this build embeds none; set EvalFile); using the hand-crafted evaluation");
        }
        self.apply_network();
    }

    /// `EvalFile`: loads the network at once, so a bad file is reported when it is named; on
    /// failure the current network stays in use. `<empty>` selects the built-in network.
    pub(crate) fn load_eval_file(&mut self, path: Option<String>) {
        match path {
            None => {
                self.networks.selected = self.networks.embedded.clone();
                match &self.networks.selected {
                    Some(net) => self.info(&format!("network: the embedded one, {}", describe(net))),
                    None => self.info("network: this build embeds none"),
                }
            }
            Some(path) => match load_network(&path) {
                Ok(net) => {
                    self.info(&format!("network {}: {}", crate::truncate(&path), describe(&net)));
                    self.networks.selected = Some(Arc::new(net));
                }
                Err(e) => {
                    self.info(&format!("EvalFile {}: {e}; the current network stays in use", crate::truncate(&path)));
                    return;
                }
            },
        }
        self.apply_network();
    }
}
