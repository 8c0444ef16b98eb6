//! PGN export of finished games (export format: tag pairs, SAN movetext wrapped at 80 columns,
//! cutechess-style move comments `{score/depth time}` and a final comment with the reason).

use std::time::{SystemTime, UNIX_EPOCH};

use cutoff_board::{Board, CastlingMode, Color};

use super::game::GameRecord;

/// The tags that are the same for every game of the match.
#[derive(Debug, Clone)]
pub struct PgnContext {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`.
    pub date: String,
    /// Engine names by slot (engine1, engine2).
    pub names: [String; 2],
    pub time_control: String,
}

/// Escapes a tag value (backslash and double quote).
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Comments cannot contain `}`.
fn comment_text(text: &str) -> String {
    text.replace('}', ")")
}

/// One game as PGN, ending with a blank line.
pub fn format_game(context: &PgnContext, round: usize, record: &GameRecord) -> String {
    let white = &context.names[record.white_slot];
    let black = &context.names[1 - record.white_slot];
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    tag("Event", &context.event);
    tag("Site", &context.site);
    tag("Date", &context.date);
    tag("Round", &round.to_string());
    tag("White", white);
    tag("Black", black);
    tag("Result", record.result.pgn());
    tag("SetUp", "1");
    tag("FEN", &record.opening_fen);
    if record.chess960 {
        tag("Variant", "Chess960");
    }
    tag("TimeControl", &context.time_control);
    tag("Termination", record.termination.pgn_tag());
    tag("PlyCount", &record.moves.len().to_string());
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let board = Board::from_fen(&record.opening_fen, CastlingMode::from_chess960(record.chess960)).ok();
    let mut color = board.as_ref().map_or(Color::White, Board::side_to_move);
    let mut number = board.as_ref().map_or(1, Board::fullmove_number);
    for (i, mv) in record.moves.iter().enumerate() {
        if color == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(mv.san.clone());
        tokens.push(format!("{{{}}}", comment_text(&mv.comment())));
        if color == Color::Black {
            number += 1;
        }
        color = !color;
    }
    tokens.push(format!("{{{}}}", comment_text(&record.reason)));
    tokens.push(record.result.pgn().to_owned());
    out.push_str(&wrap(&tokens, 80));
    out.push_str("\n\n");
    out
}

/// Joins tokens (move numbers, moves, comments) with spaces into lines of at most `width`
/// characters, breaking between tokens; a token longer than a line is broken at its spaces.
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    let mut put = |word: &str| {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    };
    for token in tokens.iter().filter(|t| !t.is_empty()) {
        if token.len() <= width {
            put(token);
        } else {
            token.split(' ').filter(|w| !w.is_empty()).for_each(&mut put);
        }
    }
    out
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::engine::Score;
    use super::super::game::{GameResult, MoveRecord, Termination};
    use super::*;

    fn record(fen: &str, moves: &[(&str, &str)], result: GameResult, termination: Termination) -> GameRecord {
        GameRecord {
            opening_fen: fen.to_owned(),
            chess960: false,
            white_slot: 1,
            moves: moves
                .iter()
                .map(|&(san, uci)| MoveRecord {
                    san: san.to_owned(),
                    uci: uci.to_owned(),
                    score: Some(Score::Cp(-31)),
                    depth: Some(7),
                    time: Duration::from_millis(105),
                    clock_left: None,
                })
                .collect(),
            result,
            termination,
            reason: "Black mates".to_owned(),
            offender: None,
            incidents: Vec::new(),
        }
    }

    fn context() -> PgnContext {
        PgnContext {
            event: "Test \"match\"".to_owned(),
            site: "?".to_owned(),
            date: "2025.01.31".to_owned(),
            names: ["Alpha".to_owned(), "Beta".to_owned()],
            time_control: "10+0.1".to_owned(),
        }
    }

    #[test]
    fn formats_a_game_from_a_position_with_black_to_move() {
        // Fool's mate after 1. f3: the game starts with Black's first move.
        let fen = "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1";
        let moves = [("e5", "e7e5"), ("g4", "g2g4"), ("Qh4#", "d8h4")];
        let pgn = format_game(&context(), 3, &record(fen, &moves, GameResult::BlackWins, Termination::Checkmate));
        let expected = "\
[Event \"Test \\\"match\\\"\"]
[Site \"?\"]
[Date \"2025.01.31\"]
[Round \"3\"]
[White \"Beta\"]
[Black \"Alpha\"]
[Result \"0-1\"]
[SetUp \"1\"]
[FEN \"rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1\"]
[TimeControl \"10+0.1\"]
[Termination \"normal\"]
[PlyCount \"3\"]

1... e5 {-0.31/7 0.105s} 2. g4 {-0.31/7 0.105s} Qh4# {-0.31/7 0.105s}
{Black mates} 0-1

";
        assert_eq!(pgn, expected);
    }

    #[test]
    fn long_games_wrap_at_80_columns() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let cycle = [("Nf3", "g1f3"), ("Nf6", "g8f6"), ("Ng1", "f3g1"), ("Ng8", "f6g8")];
        let moves: Vec<(&str, &str)> = cycle.iter().cycle().take(40).copied().collect();
        let pgn = format_game(&context(), 1, &record(fen, &moves, GameResult::Draw, Termination::Repetition));
        let movetext: Vec<&str> = pgn.split("\n\n").nth(1).unwrap().lines().collect();
        assert!(movetext.len() > 5);
        assert!(movetext.iter().all(|l| l.len() <= 80 && !l.starts_with(' ') && !l.ends_with(' ')));
        let joined = movetext.join(" ");
        assert!(joined.starts_with("1. Nf3 {-0.31/7 0.105s} Nf6 {-0.31/7 0.105s} 2. Ng1"));
        assert!(joined.contains(" 20. Ng1 "));
        assert!(joined.ends_with("{Black mates} 1/2-1/2"));
        assert!(pgn.contains("[White \"Beta\"]\n[Black \"Alpha\"]\n[Result \"1/2-1/2\"]\n"));
        assert!(pgn.contains("[PlyCount \"40\"]"));
    }

    #[test]
    fn move_comments_with_a_clock() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut game = record(fen, &[("e4", "e2e4")], GameResult::Draw, Termination::MaxPlies);
        game.moves[0].clock_left = Some(Duration::from_millis(9_895));
        let pgn = format_game(&context(), 1, &game);
        assert!(pgn.contains("1. e4 {-0.31/7 0.105s, tl=9.895s}"), "{pgn}");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_089), (2025, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn escapes_and_wraps() {
        assert_eq!(escape(r#"a "b" \c"#), r#"a \"b\" \\c"#);
        assert_eq!(comment_text("x}y"), "x)y");
        let tokens = |text: &str| -> Vec<String> { text.split('|').map(str::to_owned).collect() };
        assert_eq!(wrap(&tokens("aa|bb|cc"), 5), "aa bb\ncc");
        assert_eq!(wrap(&tokens("aaaaaaa|b"), 5), "aaaaaaa\nb");
        // Comments move to the next line whole, unless longer than a line.
        assert_eq!(wrap(&tokens("1.|e4|{a b}"), 7), "1. e4\n{a b}");
        assert_eq!(wrap(&tokens("1.|{a b c d}"), 5), "1. {a\nb c\nd}");
    }
}
