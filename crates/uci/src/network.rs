//! The evaluation network: the one embedded in the binary, and those `EvalFile` loads.

use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use cutoff_nnue::{Network, NetworkError};

/// The bytes of the embedded network (empty when the build embeds none; see `build.rs`).
static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));

/// Whether a new engine evaluates with the embedded network (`UseNNUE`'s default). On since
/// `net5` beat the hand-crafted evaluation by the margin `docs/nnue.md` asks for (400 games at
/// 10+0.1); `UseNNUE false` selects the hand-crafted evaluation.
pub const USE_NNUE_DEFAULT: bool = true;

/// The network embedded in the binary, if the build has one (parsed once, then shared).
///
/// ```
/// // Every build either embeds a valid network or none at all.
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
    /// The file is not a valid network.
    Network(NetworkError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read it: {e}"),
            LoadError::Network(e) => write!(f, "not a valid network: {e}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io(e) => Some(e),
            LoadError::Network(e) => Some(e),
        }
    }
}

/// Reads a network file.
///
/// ```
/// let err = cutoff_uci::load_network("no/such/file.nnue").unwrap_err();
/// assert!(matches!(err, cutoff_uci::LoadError::Io(_)));
/// ```
pub fn load_network(path: impl AsRef<Path>) -> Result<Network, LoadError> {
    let bytes = std::fs::read(path).map_err(LoadError::Io)?;
    Network::from_bytes(&bytes).map_err(LoadError::Network)
}

/// A one-line description of a network, for `info string`.
pub(crate) fn describe(net: &Network) -> String {
    format!("(768 -> {}) x 2 -> {}", net.hidden(), net.output_buckets())
}
