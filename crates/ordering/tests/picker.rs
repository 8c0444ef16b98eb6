//! The picker returns exactly the legal moves, each once, whatever TT, killer and counter
//! moves it is given (random 16-bit values, moves from other positions, legal moves), under
//! every configuration; and the study's ways of picking (with the `study` feature) return the
//! engine picker's order.

use std::collections::HashSet;
use std::path::PathBuf;

use cutoff_board::{Bitboard, Board, CastlingMode, Color, GenKind, Move, MoveList};
use cutoff_ordering::{Histories, MAX_KILLERS, OrderingConfig};
// The picker under test: the engine's, or with the `study` feature the study's, which picks the
// way each configuration says (the engine's way under `OrderingConfig::FULL`).
#[cfg(not(feature = "study"))]
use cutoff_ordering::MovePicker as Picker;
#[cfg(feature = "study")]
use cutoff_ordering::{MovePicker, StudyPicker as Picker};

/// The repository's data folder, `<repo>/data`.
fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

fn suite_positions() -> Vec<Board> {
    let mut boards = Vec::new();
    for (file, chess960) in [("standard.epd", false), ("chess960.epd", true)] {
        let path = data_dir().join("perft").join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen = line.split(';').next().unwrap().trim();
            boards.push(Board::from_fen(fen, CastlingMode::from_chess960(chess960)).unwrap());
        }
    }
    boards
}

struct Rng(cutoff_board::SplitMix64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// A move that is legal here, legal elsewhere, or just 16 random bits.
    fn candidate(&mut self, legal: &MoveList, elsewhere: &[Move]) -> Option<Move> {
        match self.next() % 4 {
            0 => None,
            1 if !legal.is_empty() => Some(legal[(self.next() % legal.len() as u64) as usize]),
            2 if !elsewhere.is_empty() => Some(elsewhere[(self.next() % elsewhere.len() as u64) as usize]),
            _ => Move::from_raw(self.next() as u16),
        }
    }
}

fn drain(picker: &mut Picker, history: &Histories) -> Vec<Move> {
    std::iter::from_fn(|| picker.next(history)).collect()
}

/// The engine's configuration, and with the `study` feature (where the switches can be set)
/// a selection of others.
fn configs() -> Vec<OrderingConfig> {
    let full = OrderingConfig::FULL;
    #[cfg(feature = "study")]
    {
        vec![
            full,
            OrderingConfig::NONE,
            OrderingConfig { staged: false, ..full },
            OrderingConfig { refutations_first: false, ..full },
            OrderingConfig { evasion_stage: false, ..full },
            OrderingConfig { killers: 3, countermove: false, ..full },
            OrderingConfig { killers: 1, see_split: false, mvv_lva: false, ..full },
        ]
    }
    #[cfg(not(feature = "study"))]
    vec![full]
}

/// Histories with random scores, so that quiet ordering is exercised.
fn random_histories(rng: &mut Rng, boards: &[Board]) -> Box<Histories> {
    let mut h = Histories::boxed();
    for b in boards.iter().take(50) {
        for mv in b.legal_moves() {
            let bonus = (rng.next() % 4000) as i32 - 2000;
            h.butterfly.update((Color::White, mv, Bitboard::EMPTY), bonus);
            h.butterfly.update((Color::Black, mv, Bitboard::EMPTY), -bonus);
        }
    }
    h
}

#[test]
fn picker_returns_each_legal_move_once() {
    let roots = suite_positions();
    let mut rng = Rng(cutoff_board::SplitMix64::new(42));
    let history = random_histories(&mut rng, &roots);
    let configs = configs();
    let mut elsewhere: Vec<Move> = Vec::new();
    let mut nodes = 0;
    for (n, root) in roots.iter().enumerate() {
        // The root and its children: in-check positions come up among the children.
        let mut boards = vec![*root];
        if n % 4 == 0 {
            for mv in root.legal_moves() {
                let mut child = *root;
                child.play_unchecked(mv);
                boards.push(child);
            }
        }
        for board in boards {
            nodes += 1;
            let legal = board.legal_moves();
            let expected: HashSet<Move> = legal.iter().copied().collect();
            let mut noisy = MoveList::new();
            board.generate(GenKind::Noisy, &mut noisy);
            for config in &configs {
                let tt = rng.candidate(&legal, &elsewhere);
                let mut killers = [None; MAX_KILLERS];
                for k in &mut killers {
                    *k = rng.candidate(&legal, &elsewhere);
                }
                let counter = rng.candidate(&legal, &elsewhere);

                let mut picker = Picker::main(&board, tt, killers, counter, *config);
                let got = drain(&mut picker, &history);
                let set: HashSet<Move> = got.iter().copied().collect();
                assert_eq!(set.len(), got.len(), "duplicate move in {} with {config:?}: {got:?}", board.fen());
                assert_eq!(set, expected, "wrong move set in {} with {config:?}", board.fen());
                if config.tt_move() && tt.is_some_and(|m| expected.contains(&m)) {
                    assert_eq!(got.first().copied(), tt, "TT move not first in {}", board.fen());
                }

                // The engine's staged picker, the study's unstaged one and the study's with the
                // refutations inside the quiet list pick the same order (the study's pickers
                // exist with the `study` feature only: `cargo test --workspace` enables it
                // through xtask).
                #[cfg(feature = "study")]
                if config.staged() {
                    if config.noisy_first() {
                        let mut engine = MovePicker::main(&board, tt, killers, counter, *config);
                        let engine_order: Vec<Move> = engine.iter(&history).collect();
                        assert_eq!(engine_order, got, "study != engine in {} with {config:?}", board.fen());
                    }
                    let unstaged = OrderingConfig { staged: false, ..*config };
                    let mut other = Picker::main(&board, tt, killers, counter, unstaged);
                    assert_eq!(
                        drain(&mut other, &history),
                        got,
                        "staged != unstaged in {} with {config:?}",
                        board.fen()
                    );
                    let inside = OrderingConfig { refutations_first: false, ..*config };
                    let mut other = Picker::main(&board, tt, killers, counter, inside);
                    assert_eq!(
                        drain(&mut other, &history),
                        got,
                        "refutations placement changed order in {}",
                        board.fen()
                    );
                }

                // skip_quiets right away: exactly the noisy moves come, plus a legal TT move
                // (returned first, before skipping can apply).
                let mut picker = Picker::main(&board, tt, killers, counter, *config);
                picker.skip_quiets();
                let got: HashSet<Move> = drain(&mut picker, &history).into_iter().collect();
                let legal_tt = tt.filter(|m| config.tt_move() && expected.contains(m));
                let want: HashSet<Move> = noisy.iter().copied().chain(legal_tt).collect();
                assert_eq!(got, want, "skip_quiets in {} with {config:?}", board.fen());

                // skip_quiets_but_checks right away: the noisy moves and the quiet checks, plus a
                // legal TT move; and after half the moves, the rest minus the quiet non-checks.
                let mut picker = Picker::main(&board, tt, killers, counter, *config);
                picker.skip_quiets_but_checks();
                let got: HashSet<Move> = drain(&mut picker, &history).into_iter().collect();
                let checks = expected.iter().copied().filter(|&m| m.is_quiet() && board.gives_check(m));
                let want: HashSet<Move> = noisy.iter().copied().chain(checks).chain(legal_tt).collect();
                assert_eq!(got, want, "skip_quiets_but_checks in {} with {config:?}", board.fen());
                let mut picker = Picker::main(&board, tt, killers, counter, *config);
                let half = expected.len() / 2;
                let first: Vec<Move> = (0..half).map_while(|_| picker.next(&history)).collect();
                picker.skip_quiets_but_checks();
                let rest = drain(&mut picker, &history);
                let all: HashSet<Move> = first.iter().chain(&rest).copied().collect();
                assert_eq!(all.len(), first.len() + rest.len(), "duplicate after a late skip in {}", board.fen());
                let want: HashSet<Move> = expected
                    .iter()
                    .copied()
                    .filter(|&m| first.contains(&m) || legal_tt == Some(m) || !m.is_quiet() || board.gives_check(m))
                    .collect();
                assert_eq!(all, want, "late skip_quiets_but_checks in {} with {config:?}", board.fen());

                // Quiescence: noisy moves (and a legal noisy TT move), or every evasion in check.
                let mut picker = Picker::qsearch(&board, tt, *config);
                let got = drain(&mut picker, &history);
                let set: HashSet<Move> = got.iter().copied().collect();
                assert_eq!(set.len(), got.len(), "qsearch duplicate in {}", board.fen());
                let want: HashSet<Move> =
                    if board.in_check() { expected.clone() } else { noisy.iter().copied().collect() };
                assert_eq!(set, want, "qsearch set in {}", board.fen());
            }
            elsewhere.extend(legal.iter().take(3));
        }
    }
    assert!(nodes > 3000, "{nodes} nodes");
}
