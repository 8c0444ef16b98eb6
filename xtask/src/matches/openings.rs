//! Opening positions from an EPD or FEN file, and their (optionally shuffled) order.

use std::path::Path;

use cutoff_board::{Board, CastlingMode, Game};

use crate::util::Result;

/// The file of the 960 Chess960 start positions, relative to the repository's `data/`
/// directory; a test derives them again from Scharnagl's numbering and checks the file.
pub const CHESS960_OPENINGS: &str = "openings/chess960.epd";

/// One start position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line number in the file.
    pub line: usize,
    /// Normalised six-field FEN.
    pub fen: String,
}

/// Openings read from a file, with the number of lines skipped because the game is already over.
#[derive(Debug)]
pub struct OpeningBook {
    pub openings: Vec<Opening>,
    pub skipped_finished: usize,
}

/// Reads every position of an EPD/FEN file (see [`parse_line`]).
pub fn load(path: &Path, chess960: bool) -> Result<OpeningBook> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let book = parse(&text, chess960).map_err(|e| format!("{}: {e}", path.display()))?;
    if book.openings.is_empty() {
        return Err(format!("{} has no usable opening positions", path.display()).into());
    }
    Ok(book)
}

/// Parses the text of an opening file.
pub fn parse(text: &str, chess960: bool) -> Result<OpeningBook> {
    let mut book = OpeningBook { openings: Vec::new(), skipped_finished: 0 };
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let Some(fen) = parse_line(raw, chess960).map_err(|e| format!("line {line}: {e}"))? else {
            continue;
        };
        let board =
            Board::from_fen(&fen, CastlingMode::from_chess960(chess960)).map_err(|e| format!("line {line}: {e}"))?;
        if Game::new(board).outcome().is_some() {
            book.skipped_finished += 1;
            continue;
        }
        book.openings.push(Opening { line, fen });
    }
    Ok(book)
}

/// One line of an opening file as a normalised FEN, `None` for a blank or `#` comment line.
///
/// Accepts a full FEN (six fields, anything after them ignored) or an EPD line: four fields and
/// operations such as `hmvc 2; fmvn 9; c0 "comment";` (the half-move clock and move number are
/// taken from `hmvc`/`fmvn` and default to 0 and 1).
pub fn parse_line(raw: &str, chess960: bool) -> Result<Option<String>> {
    let raw = raw.trim();
    if raw.is_empty() || raw.starts_with('#') {
        return Ok(None);
    }
    let tokens: Vec<&str> = raw.split_whitespace().collect();
    if tokens.len() < 4 {
        return Err(format!("expected a FEN or EPD position, found `{raw}`").into());
    }
    let numeric = |i: usize| tokens.get(i).and_then(|t| t.trim_end_matches(';').parse::<u32>().ok());
    let (halfmove, fullmove) = match (numeric(4), numeric(5)) {
        (Some(h), Some(f)) => (h, f),
        _ => {
            let mut halfmove = 0;
            let mut fullmove = 1;
            let operations = tokens[4..].join(" ");
            for op in operations.split(';') {
                let mut words = op.split_whitespace();
                match (words.next(), words.next()) {
                    (Some("hmvc"), Some(n)) => halfmove = n.parse().map_err(|_| format!("bad hmvc `{n}`"))?,
                    (Some("fmvn"), Some(n)) => fullmove = n.parse().map_err(|_| format!("bad fmvn `{n}`"))?,
                    _ => {}
                }
            }
            (halfmove, fullmove)
        }
    };
    let fen = format!("{} {} {} {} {halfmove} {fullmove}", tokens[0], tokens[1], tokens[2], tokens[3]);
    let board = Board::from_fen(&fen, CastlingMode::from_chess960(chess960))
        .map_err(|e| format!("bad position `{fen}`: {e}"))?;
    Ok(Some(board.fen().to_string()))
}

/// SplitMix64: a small, well-mixed deterministic generator (enough for shuffling openings).
#[derive(Debug, Clone)]
pub struct SplitMix64(cutoff_board::SplitMix64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(cutoff_board::SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..bound` (`bound > 0`), by multiply-shift (bias below 2^-40 here).
    pub fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }
}

/// The order in which openings are used: file order without a seed, else a Fisher-Yates
/// shuffle driven by the seed.
pub fn order(count: usize, seed: Option<u64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if let Some(seed) = seed {
        let mut rng = SplitMix64::new(seed);
        for i in (1..count).rev() {
            order.swap(i, rng.below(i + 1));
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The back rank of Chess960 start position `n` (0..960) in Scharnagl's numbering, from the
    /// a-file to the h-file (518 is the standard `RNBQKBNR`).
    fn chess960_back_rank(n: usize) -> [char; 8] {
        assert!(n < 960, "Chess960 positions are numbered 0..960");
        let mut rank = [' '; 8];
        let mut n = n;
        // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
        rank[2 * (n % 4) + 1] = 'B';
        n /= 4;
        rank[2 * (n % 4)] = 'B';
        n /= 4;
        let place = |rank: &mut [char; 8], mut nth: usize, piece: char| {
            for square in rank.iter_mut() {
                if *square == ' ' {
                    if nth == 0 {
                        *square = piece;
                        return;
                    }
                    nth -= 1;
                }
            }
        };
        place(&mut rank, n % 6, 'Q');
        n /= 6;
        // The knights on two of the five empty squares, in this order.
        const KNIGHTS: [(usize, usize); 10] =
            [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
        let (first, second) = KNIGHTS[n];
        // Placing the first knight leaves one empty square fewer before the second.
        place(&mut rank, second, 'N');
        place(&mut rank, first, 'N');
        // Rook, king, rook on the last three squares.
        for piece in ['R', 'K', 'R'] {
            place(&mut rank, 0, piece);
        }
        rank
    }

    /// Chess960 start position `n` as a Shredder-FEN (castling rights named by the rooks' files,
    /// the h-side rook first, as the board writes them).
    fn chess960_fen(n: usize) -> String {
        let rank = chess960_back_rank(n);
        let white: String = rank.iter().collect();
        let black = white.to_lowercase();
        let rook_files: String = rank
            .iter()
            .enumerate()
            .rev()
            .filter(|&(_, &p)| p == 'R')
            .map(|(f, _)| char::from(b'A' + f as u8))
            .collect();
        format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rook_files}{} - 0 1", rook_files.to_lowercase())
    }

    #[test]
    fn chess960_numbering_and_the_committed_file() {
        assert_eq!(chess960_back_rank(518).iter().collect::<String>(), "RNBQKBNR");
        assert_eq!(chess960_back_rank(0).iter().collect::<String>(), "BBQNNRKR");
        assert_eq!(chess960_back_rank(959).iter().collect::<String>(), "RKRNNQBB");
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let rank = chess960_back_rank(n);
            assert!(seen.insert(rank), "position {n} repeats");
            let at = |p: char| rank.iter().enumerate().filter(|&(_, &q)| q == p).map(|(f, _)| f).collect::<Vec<_>>();
            let (bishops, rooks, king) = (at('B'), at('R'), at('K'));
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "{n}: king not between the rooks");
            assert_eq!((at('Q').len(), at('N').len()), (1, 2));
            let fen = chess960_fen(n);
            let board = Board::from_fen(&fen, CastlingMode::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
            // 16 pawn moves and at least one move for each knight.
            assert!(board.legal_moves().len() >= 18, "{fen}");
        }
        let text = std::fs::read_to_string(crate::util::data_dir().unwrap().join(CHESS960_OPENINGS)).unwrap();
        let book = parse(&text, true).unwrap();
        let fens: Vec<String> = book.openings.into_iter().map(|o| o.fen).collect();
        assert_eq!(fens, (0..960).map(chess960_fen).collect::<Vec<_>>());
    }

    #[test]
    fn reads_epd_and_fen_lines() {
        // The format of 8moves_v3: four EPD fields and nothing else.
        let epd = "rnb2rk1/ppp1qppp/3p1n2/3Pp3/2P5/2N1PN2/PP1Q1PPP/R3KB1R w KQ -";
        assert_eq!(
            parse_line(epd, false).unwrap().unwrap(),
            "rnb2rk1/ppp1qppp/3p1n2/3Pp3/2P5/2N1PN2/PP1Q1PPP/R3KB1R w KQ - 0 1"
        );
        let with_ops = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 hmvc 0; fmvn 1; c0 \"e4\";";
        // The en passant square is dropped: no black pawn can take on e3.
        assert_eq!(
            parse_line(with_ops, false).unwrap().unwrap(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        let epd_counters = "r1bqk2r/1p3pbp/2np1np1/p1p1p3/2P5/P1N2NP1/1P1PPPBP/1RBQ1RK1 w kq - hmvc 3; fmvn 9;";
        assert!(parse_line(epd_counters, false).unwrap().unwrap().ends_with(" w kq - 3 9"));
        let fen = "r1bqr1k1/pp2ppbp/n1pp1np1/P7/2PP4/5NP1/1P2PPBP/RNBQ1RK1 w - - 1 9";
        assert_eq!(parse_line(fen, false).unwrap().unwrap(), fen);
        assert_eq!(parse_line(&format!("  {fen} ; some comment"), false).unwrap().unwrap(), fen);
        assert_eq!(parse_line("", false).unwrap(), None);
        assert_eq!(parse_line("   # a comment", false).unwrap(), None);
        assert!(parse_line("8/8/8", false).is_err());
        assert!(parse_line("8/8/8/8/8/8/8/8 w - -", false).is_err()); // no kings
        assert!(parse_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc x;", false).is_err());
        // Chess960, Shredder-FEN castling.
        let frc = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert_eq!(parse_line(frc, true).unwrap().unwrap(), frc);
    }

    #[test]
    fn parses_files_with_line_numbers() {
        let text = "# openings\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
                    \n\
                    7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n\
                    4k3/8/8/8/8/8/8/4K2R w K - 0 1\n";
        let book = parse(text, false).unwrap();
        assert_eq!(book.skipped_finished, 1); // the stalemate
        let lines: Vec<usize> = book.openings.iter().map(|o| o.line).collect();
        assert_eq!(lines, [2, 5]);
        let err = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnonsense\n", false).unwrap_err();
        assert!(err.to_string().starts_with("line 2:"), "{err}");
    }

    #[test]
    fn shuffled_order_is_a_deterministic_permutation() {
        assert_eq!(order(5, None), [0, 1, 2, 3, 4]);
        let a = order(3000, Some(42));
        assert_eq!(a, order(3000, Some(42)));
        assert_ne!(a, order(3000, Some(43)));
        assert_ne!(a, order(3000, None));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, order(3000, None));
        assert_eq!(order(0, Some(1)), Vec::<usize>::new());
        // SplitMix64 reference output for seed 0 (first value of the published generator).
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }
}
