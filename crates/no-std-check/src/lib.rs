//! The `no_std` promise of Cutoff's reusable crates, checked by the compiler.
//!
//! `cutoff-board`, `cutoff-ordering`, `cutoff-eval` and `cutoff-nnue` promise to build with
//! `core` and `alloc` only, with no `std` feature to turn off. This crate is `#![no_std]` and brings
//! its own `#[panic_handler]`; `std` defines one too, so if any crate used here pulled in
//! `std` the build would fail with "duplicate lang item in crate `std`: `panic_impl`"
//! (E0152). Adding `extern crate std;` to this file reproduces that failure (checked by
//! hand when this crate was written).
//!
//! It is a workspace member, so `cargo build --workspace` and `cargo clippy --workspace`
//! build it (and `.ci/run` builds it by name). No other compilation target can be installed
//! on the machines that run CI, so the check runs on the host target: an `rlib` with a panic
//! handler needs no target of its own. `cutoff-tt` is not checked: it promises `std` (it
//! shares one table between threads and clears it with scoped threads).
//!
//! Every crate's features unify across the workspace, which is why the checked crates have
//! no `std` feature at all: a feature enabled by another member would reach this crate too.

#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec;

use cutoff_board::{Board, CastlingMode, Game, GenKind, MoveList};
use cutoff_nnue::{AccumulatorStack, INPUTS, Network};
use cutoff_ordering::{Histories, Killers, MovePicker, OrderingConfig};

/// Uses each crate a little, so that their code is really compiled for this crate:
/// perft, SAN, a game, a staged move picker, an evaluation and an NNUE evaluation (a tiny
/// network read back from its file, and an incremental update).
pub fn exercise(fen: &str) -> Option<(u64, i32, usize, i32)> {
    let board = Board::from_fen(fen, CastlingMode::Standard).ok()?;
    let mut moves = MoveList::new();
    board.generate(GenKind::All, &mut moves);
    let mut game = Game::new(board);
    let first = *moves.first()?;
    let san = board.san(first);
    game.play_san(san.as_str()).ok()?;

    let history: Box<Histories> = Histories::boxed();
    let killers = Killers::new();
    let mut picker = MovePicker::main(&board, None, killers.get(0), None, OrderingConfig::FULL);
    let picked = picker.iter(&history).count();

    let n = 16;
    let net = Network::from_parts(n, vec![1; INPUTS * n], vec![0; n], vec![1; 2 * n], vec![0]).ok()?;
    let net = Arc::new(Network::from_bytes(&net.to_bytes()).ok()?);
    let mut stack = AccumulatorStack::new(net);
    stack.reset(&board);
    stack.push(&board, first);
    let nnue = stack.evaluate(game.board());
    stack.pop();

    Some((board.perft(2), cutoff_eval::evaluate(game.board()), picked, nnue))
}

/// The panic handler that `std` would otherwise provide: with `std` anywhere in the crate
/// graph, this is a duplicate and the build fails. Left out of the crate's test build
/// (`cargo clippy --all-targets` checks one), whose test harness brings `std` on purpose.
#[cfg(not(test))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
