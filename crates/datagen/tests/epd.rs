//! The EPD converter: EPD lines become one-position games, and bad lines are reported with
//! their number.

use cutoff_board::{Board, CastlingMode};
use cutoff_datagen::epd::{ConvertError, EpdError, convert_epd, parse_epd_line};
use cutoff_datagen::format::SCORE_MAX;
use cutoff_datagen::{FormatError, GameReader, GameRecord, GameResult, GameWriter, file_stats};

fn board(fen: &str, mode: CastlingMode) -> Board {
    Board::from_fen(fen, mode).unwrap()
}

fn read_all(bytes: &[u8]) -> Result<Vec<GameRecord>, FormatError> {
    GameReader::new(bytes)?.collect()
}

/// Lines copied from the team's tuning sets (`cutoff-selfplay-scored.epd` and
/// `selfplay-quiet-labeled.epd`), plus the other forms the converter reads.
const EPD: &str = r#"8/4k3/7R/8/8/4KP2/P7/8 b - - ce -854; c9 "1-0";
2r5/p5kp/4p1p1/p2b4/P2R4/6P1/2r2PP1/3R2K1 w - - ce -448; c9 "0-1";
8/5pQ1/3k4/p1N1n3/8/2P5/5KPP/8 w - - ce 1141; c9 "1-0";
# a comment, then an empty line

5r2/7k/2p5/4n2p/4r1p1/8/P1N3PP/2RR2K1 b - - c9 "1/2-1/2";
r1b1k2r/p1q1bp2/2p1p2n/3pP1pp/8/3B4/PPPNQPPP/R1B1K2R b KQkq - c9 "1/2-1/2";
8/5pQ1/3k4/p1N1n3/8/2P5/5KPP/8 w - - 12 40 ce 99999; c9 "0.5"; id "clocks";
8/5pQ1/3k4/p1N1n3/8/2P5/5KPP/8 w - - hmvc 7; fmvn 33; c9 "0-1"; ce -3;
"#;

#[test]
fn epd_lines_become_one_position_games() {
    let mut writer = GameWriter::new(Vec::new()).unwrap();
    let stats = convert_epd(EPD.as_bytes(), &mut writer, CastlingMode::Standard).unwrap();
    assert_eq!((stats.positions, stats.scored), (7, 5));
    let bytes = writer.into_inner();
    let games = read_all(&bytes).unwrap();
    let summary: Vec<_> = games
        .iter()
        .map(|g| (g.len(), g.final_score(), g.result(), g.start().halfmove_clock(), g.start().fullmove_number()))
        .collect();
    assert_eq!(
        summary,
        [
            (0, Some(-854), GameResult::WhiteWin, 0, 1),
            (0, Some(-448), GameResult::BlackWin, 0, 1),
            (0, Some(1141), GameResult::WhiteWin, 0, 1),
            (0, None, GameResult::Draw, 0, 1),
            (0, None, GameResult::Draw, 0, 1),
            (0, Some(SCORE_MAX), GameResult::Draw, 12, 40), // clamped
            (0, Some(-3), GameResult::BlackWin, 7, 33),
        ]
    );
    assert_eq!(
        games[4].start(),
        &board("r1b1k2r/p1q1bp2/2p1p2n/3pP1pp/8/3B4/PPPNQPPP/R1B1K2R b KQkq - 0 1", CastlingMode::Standard)
    );
    // Training positions: the score and the result from the side to move's point of view.
    let first: Vec<_> = games[0].positions().map(|p| (p.score, p.result)).collect();
    assert_eq!(first, [(Some(-854), 0.0)]); // Black to move, White won
    let second: Vec<_> = games[1].positions().map(|p| (p.score, p.result)).collect();
    assert_eq!(second, [(Some(-448), 0.0)]); // White to move, Black won
    assert_eq!(games[3].positions().next().unwrap().score, None);
    assert_eq!(games[5].positions().count(), 0); // a mate-like score
    // About 37 bytes per one-position game.
    let stats = file_stats(&bytes[..]).unwrap();
    assert_eq!((stats.games, stats.moves, stats.training_positions, stats.scored_positions), (7, 0, 6, 5));
    assert!(stats.bytes_per_position() < 40.0, "{}", stats.bytes_per_position());
}

#[test]
fn bad_epd_lines_are_reported_with_their_number() {
    let convert = |text: &str| {
        let mut writer = GameWriter::new(Vec::new()).unwrap();
        convert_epd(text.as_bytes(), &mut writer, CastlingMode::Standard).unwrap_err()
    };
    let first = EPD.lines().next().unwrap();
    let e = convert(&format!("{first}\n8/8/8/8/8/8/8/8 w - - c9 \"1-0\";\n"));
    assert!(matches!(e, ConvertError::Line { line: 2, error: EpdError::Fen(_) }), "{e}");
    let e = convert("8/4k3/7R/8/8/4KP2/P7/8 b - - ce -854;\n");
    assert!(matches!(e, ConvertError::Line { line: 1, error: EpdError::MissingResult }), "{e}");
    assert!(e.to_string().starts_with("line 1: no result"), "{e}");
    let e = convert("8/4k3/7R/8/8/4KP2/P7/8 b - - ce big; c9 \"1-0\";\n");
    assert!(matches!(e, ConvertError::Line { line: 1, error: EpdError::BadScore(_) }), "{e}");
    let e = convert("8/4k3/7R/8/8/4KP2/P7/8 b - - c9 \"2-0\";\n");
    assert!(matches!(e, ConvertError::Line { line: 1, error: EpdError::BadResult(_) }), "{e}");
    let e = convert("8/4k3/7R/8/8/4KP2/P7/8 b\n");
    assert!(matches!(e, ConvertError::Line { line: 1, error: EpdError::MissingFields }), "{e}");
    assert_eq!(parse_epd_line("   ", CastlingMode::Standard), Ok(None));
    // A Chess960 castling field needs the Chess960 mode.
    let line = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - c9 \"1-0\";";
    assert!(parse_epd_line(line, CastlingMode::Standard).is_err());
    assert!(parse_epd_line(line, CastlingMode::Chess960).unwrap().unwrap().board.is_chess960());
}
