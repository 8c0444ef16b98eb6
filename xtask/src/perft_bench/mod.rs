//! Counting nodes: `cargo xtask perft` (the move generator against the perft suites, and with
//! `--bench` its speed against cozy-chess) and `cargo xtask bench` (the engine's `bench` node
//! count and speed, against the last `Bench:` commit line or another revision). `bench` also
//! builds the engine for the other tasks ([`bench::build_engine`]).

pub mod bench;
pub mod perft;
pub mod perft_speed;
