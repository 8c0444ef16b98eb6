//! Move text: UCI long algebraic notation and SAN.

pub(crate) mod san;
pub(crate) mod uci;
