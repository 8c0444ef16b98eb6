//! The tools around the evaluation network and its data, besides training (`train`): `wdl`
//! (fit the `UCI_ShowWDL` model to game results), `labels` (how a self-play set's result and
//! score labels agree), `evalbias` (networks' static evaluations against search scores) and
//! `widen` (a wider network with zero neurons, to measure what the width costs).

pub mod evalbias;
pub mod labels;
pub mod wdl;
pub mod widen;
