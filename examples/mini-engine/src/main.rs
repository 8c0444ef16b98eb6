//! A complete small UCI chess engine built on three Cutoff crates and nothing else: `cutoff-board`
//! (rules), `cutoff-ordering` (staged move picker, killers, history) and `cutoff-tt` (transposition
//! table). Iterative deepening alpha-beta and quiescence search; the evaluation is material only.
//! Run `cargo run -p cutoff-mini-engine` and type UCI (`position startpos moves e2e4`, `go depth 5`).

use std::io::BufRead;
use std::time::{Duration, Instant};

use cutoff_board::{Bitboard, Board, CastlingMode, Color, MAX_PLY, Move, PieceType};
use cutoff_ordering::{Histories, Killers, MovePicker, OrderingConfig};
use cutoff_tt::{Bound, MATE, TranspositionTable, TtEntry};

const INFINITY: i32 = MATE + 1;

/// Material balance from the side to move's point of view, in centipawns.
fn evaluate(board: &Board) -> i32 {
    let material = |color, kind: PieceType| board.colored_pieces(color, kind).len() as i32 * kind.see_value();
    let us = board.side_to_move();
    PieceType::ALL.iter().map(|&kind| material(us, kind) - material(!us, kind)).sum()
}

struct Searcher<'a> {
    tt: &'a TranspositionTable,
    history: Box<Histories>,
    killers: Killers,
    /// Keys of the game's earlier positions and of the current line, for repetitions.
    keys: Vec<u64>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    root_best: Option<Move>,
}

impl Searcher<'_> {
    fn out_of_time(&mut self) -> bool {
        self.stopped |= self.nodes.is_multiple_of(1024) && self.deadline.is_some_and(|d| Instant::now() >= d);
        self.stopped
    }

    fn is_repetition(&self, board: &Board) -> bool {
        let recent = self.keys.iter().rev().take(board.halfmove_clock() as usize);
        recent.skip(1).step_by(2).any(|&key| key == board.key())
    }

    fn alpha_beta(&mut self, board: &Board, mut alpha: i32, beta: i32, depth: i32, ply: usize) -> i32 {
        if depth <= 0 {
            return self.quiescence(board, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.out_of_time() || (ply > 0 && (board.is_fifty_move_draw() || self.is_repetition(board))) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(board);
        }
        let entry = self.tt.probe(board.key(), ply);
        let cut = |e: &TtEntry| match e.bound {
            Bound::Exact => true,
            Bound::Lower => e.score >= beta,
            Bound::Upper => e.score <= alpha,
        };
        if let Some(e) = entry.filter(|e| ply > 0 && e.depth >= depth && cut(e)) {
            return e.score;
        }
        let original_alpha = alpha;
        let (mut best, mut best_move) = (-INFINITY, None);
        let config = OrderingConfig::FULL; // every heuristic on; killers, history: updated below
        let mut picker = MovePicker::main(board, entry.and_then(|e| e.mv), self.killers.get(ply), None, config);
        self.keys.push(board.key());
        // Not `picker.iter(&self.history)`: the searches below update the history.
        while let Some(mv) = picker.next(&self.history) {
            let mut child = *board;
            child.play_unchecked(mv);
            let score = -self.alpha_beta(&child, -beta, -alpha, depth - 1, ply + 1);
            if self.stopped {
                break;
            }
            if score > best {
                (best, best_move) = (score, Some(mv));
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if mv.is_quiet() {
                    self.killers.update(ply, mv, usize::from(config.killers()));
                    self.history.butterfly.update((board.side_to_move(), mv, Bitboard::EMPTY), depth * depth * 16);
                }
                break;
            }
        }
        self.keys.pop();
        if self.stopped || best_move.is_none() {
            return if board.in_check() && !self.stopped { -MATE + ply as i32 } else { 0 }; // mate, stalemate
        }
        let bound = match (best > original_alpha, best >= beta) {
            (_, true) => Bound::Lower,
            (true, false) => Bound::Exact,
            (false, false) => Bound::Upper,
        };
        self.tt.store(board.key(), ply, TtEntry { mv: best_move, score: best, eval: 0, depth, bound, pv: false });
        self.root_best = if ply == 0 { best_move } else { self.root_best };
        best
    }

    fn quiescence(&mut self, board: &Board, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        let in_check = board.in_check();
        let mut best = if in_check { -MATE + ply as i32 } else { evaluate(board) };
        if best >= beta || ply >= MAX_PLY - 1 || self.out_of_time() {
            return best;
        }
        alpha = alpha.max(best);
        // Captures and promotions by MVV-LVA (all evasions when in check).
        let mut picker = MovePicker::qsearch(board, None, OrderingConfig::FULL);
        while let Some(mv) = picker.next(&self.history) {
            if !in_check && !board.see_ge(mv, 0) {
                continue; // a losing capture
            }
            let mut child = *board;
            child.play_unchecked(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Iterative deepening: the best move of the last iteration that finished.
    fn think(&mut self, board: &Board, max_depth: i32) -> Option<Move> {
        self.tt.new_search();
        let mut best = board.legal_moves().first().copied();
        for depth in 1..=max_depth {
            let score = self.alpha_beta(board, -INFINITY, INFINITY, depth, 0);
            if self.stopped {
                break;
            }
            best = self.root_best.or(best);
            println!("info depth {depth} score cp {score} nodes {}", self.nodes);
        }
        best
    }
}

/// `startpos` or `fen <fields>`, then optionally `moves <uci>...`: the board and the keys of
/// the positions before it.
fn parse_position(words: &[&str]) -> Option<(Board, Vec<u64>)> {
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let mut board = match *words.first()? {
        "startpos" => Board::default(),
        "fen" => Board::from_fen(&words[1..moves_at].join(" "), CastlingMode::Standard).ok()?,
        _ => return None,
    };
    let mut keys = Vec::new();
    for text in words.iter().skip(moves_at + 1) {
        keys.push(board.key());
        board.play_uci(text).ok()?;
    }
    Some((board, keys))
}

fn main() {
    let tt = TranspositionTable::new(16).expect("16 MiB is a valid size");
    let (mut board, mut keys) = (Board::default(), Vec::new());
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap_or_default();
        let words: Vec<&str> = line.split_whitespace().collect();
        let value = |name: &str| words.iter().position(|&w| w == name).and_then(|i| words.get(i + 1)?.parse().ok());
        match words.first().copied() {
            Some("uci") => println!("id name cutoff-mini-engine\nid author The Cutoff developers\nuciok"),
            Some("isready") => println!("readyok"),
            Some("ucinewgame") => tt.clear(),
            Some("position") => match parse_position(&words[1..]) {
                Some(position) => (board, keys) = position,
                None => println!("info string cannot read the position"),
            },
            Some("go") => {
                let side = if board.side_to_move() == Color::White { "w" } else { "b" };
                let (time, inc) = (value(&format!("{side}time")), value(&format!("{side}inc")));
                let budget = value("movetime").or(time.map(|t: u64| t / 30 + inc.unwrap_or(0) / 2));
                let mut searcher = Searcher {
                    tt: &tt,
                    history: Histories::boxed(),
                    killers: Killers::new(),
                    keys: keys.clone(),
                    nodes: 0,
                    deadline: budget.map(|ms| Instant::now() + Duration::from_millis(ms)),
                    stopped: false,
                    root_best: None,
                };
                let best = searcher.think(&board, value("depth").map_or(64, |d| d.clamp(1, 64) as i32));
                println!("bestmove {}", best.map_or("0000".to_string(), |mv| board.uci(mv).to_string()));
            }
            Some("quit") => break,
            _ => {}
        }
    }
}
