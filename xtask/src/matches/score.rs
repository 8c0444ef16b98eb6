//! `cargo xtask score`: the results of match PGNs counted together.
//!
//! A match too long for one sitting can be played as parts fixed in advance (say two halves of
//! 200 games with different `--seed`s), each with its own `--pgn`. This command counts the
//! parts as one match, with the statistics `cargo xtask match` prints: W-D-L, the pentanomial
//! of the game pairs, Elo, nElo and LOS. Only the tags are read: `Round` (the game's number in
//! its match, from 1: games `2k - 1` and `2k` of a file form a pair, as `cargo xtask match`
//! plays them), `White`, `Black` and `Result`. With `--sprt` it adds the LLR of an SPRT over
//! all the games; `cargo xtask match --continue-from` goes on with such an SPRT in a new part.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::report::{Figures, SprtOutcome, Tally, elo_text, signed, sprt_text};
use super::settings;
use super::stats::{Sprt, Statistics};
use crate::util::Result;

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// A PGN file of `cargo xtask match --pgn`. Repeatable: the files' games are counted
    /// together, each file's pairs within that file.
    #[arg(long, value_name = "FILE", required = true)]
    pub pgn: Vec<PathBuf>,

    /// The player whose results are counted (a White or Black tag, exact); every game must
    /// have it. [default: the White player of the first file's lowest Round, engine 1 in a
    /// `cargo xtask match` PGN, whose games are written as they finish]
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,

    /// How Elo, nElo, LOS and the SPRT are counted: game pairs (pentanomial) or single games.
    #[arg(long, value_enum, default_value_t = Statistics::Pentanomial)]
    pub statistics: Statistics,

    /// The LLR of an SPRT over all the files' games, as `cargo xtask match --sprt` computes
    /// it: `elo0=X elo1=Y [alpha=0.05 beta=0.05 model=normalized|logistic]`. This counts
    /// finished parts; to continue an SPRT in a new part, use `cargo xtask match
    /// --continue-from`, which stops at a bound.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,
}

/// The tags of one game that the count needs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct GameTags {
    round: Option<String>,
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
}

/// The games of a PGN text, in order: a game starts at its first tag after movetext (or at
/// the text's first tag).
fn read_tags(text: &str) -> Vec<GameTags> {
    let mut games = Vec::new();
    let mut current: Option<GameTags> = None;
    let mut in_tags = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !in_tags {
                games.extend(current.take());
                current = Some(GameTags::default());
                in_tags = true;
            }
            let Some((name, value)) = inner.split_once(' ') else { continue };
            let value = value.trim().trim_matches('"').replace("\\\"", "\"").replace("\\\\", "\\");
            let game = current.get_or_insert_with(GameTags::default);
            match name {
                "Round" => game.round = Some(value),
                "White" => game.white = Some(value),
                "Black" => game.black = Some(value),
                "Result" => game.result = Some(value),
                _ => {}
            }
        } else if !line.is_empty() {
            in_tags = false;
        }
    }
    games.extend(current);
    games
}

/// What the files hold, counted from `player`'s view.
#[derive(Debug, Default)]
pub(super) struct Count {
    pub(super) tally: Tally,
    /// Games whose partner (the other game of the pair) is not in its file.
    pub(super) unpaired: u32,
}

/// Half-points of `player` in a game, or why the game cannot be counted.
fn half_points(game: &GameTags, player: &str) -> std::result::Result<usize, String> {
    let white = game.white.as_deref().ok_or("no White tag")?;
    let black = game.black.as_deref().ok_or("no Black tag")?;
    let as_white = match (white == player, black == player) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => return Err(format!("{player:?} plays both sides")),
        (false, false) => return Err(format!("{player:?} does not play it ({white} - {black})")),
    };
    let white_half_points = match game.result.as_deref() {
        Some("1-0") => 2,
        Some("1/2-1/2") => 1,
        Some("0-1") => 0,
        Some(other) => return Err(format!("result {other:?} is not a finished game")),
        None => return Err("no Result tag".into()),
    };
    Ok(if as_white { white_half_points } else { 2 - white_half_points })
}

/// The default player: White in the first file's game with the lowest Round (engine 1 of a
/// match, whatever order its games finished in), or the first game's White where no game has a
/// Round that is a number.
fn default_player(games: &[GameTags]) -> Option<String> {
    let first_round = games
        .iter()
        .filter_map(|game| Some((game.round.as_deref()?.parse::<u64>().ok()?, game)))
        .min_by_key(|&(round, _)| round)
        .map(|(_, game)| game);
    first_round.or(games.first()).and_then(|game| game.white.clone())
}

/// Counts `files` (name and PGN text) from `player`'s view ([`default_player`] by default).
pub(super) fn count(files: &[(String, String)], player: Option<&str>) -> std::result::Result<(Count, String), String> {
    let mut result = Count::default();
    let parsed: Vec<(&str, Vec<GameTags>)> =
        files.iter().map(|(name, text)| (name.as_str(), read_tags(text))).collect();
    if let Some((name, _)) = parsed.iter().find(|(_, games)| games.is_empty()) {
        return Err(format!("{name}: no games"));
    }
    let player = match player {
        Some(player) => player.to_owned(),
        None => parsed
            .first()
            .and_then(|(_, games)| default_player(games))
            .ok_or_else(|| "no --player, and the first file's first game has no White tag".to_string())?,
    };
    for (name, games) in &parsed {
        let mut open: HashMap<u64, usize> = HashMap::new();
        let mut seen: HashMap<u64, usize> = HashMap::new();
        for (i, game) in games.iter().enumerate() {
            let at = |why: String| format!("{name}: game {} in the file: {why}", i + 1);
            let points = half_points(game, &player).map_err(at)?;
            let round: u64 = game
                .round
                .as_deref()
                .and_then(|r| r.parse().ok())
                .filter(|&r| r >= 1)
                .ok_or_else(|| at(format!("Round {:?} is not a game number from 1", game.round)))?;
            if let Some(first) = seen.insert(round, i + 1) {
                return Err(at(format!("Round {round} again (game {first} in the file has it too)")));
            }
            match points {
                2 => result.tally.wdl.wins += 1,
                1 => result.tally.wdl.draws += 1,
                _ => result.tally.wdl.losses += 1,
            }
            match open.remove(&((round - 1) / 2)) {
                Some(first) => result.tally.pairs.add(first + points),
                None => {
                    open.insert((round - 1) / 2, points);
                }
            }
        }
        result.unpaired += open.len() as u32;
    }
    Ok((result, player))
}

/// The report: what was counted, W-D-L, pentanomial, Elo, nElo and LOS.
pub(super) fn report(count: &Count, player: &str, files: usize, statistics: Statistics) -> String {
    let wdl = count.tally.wdl;
    let figures = Figures::new(&count.tally, statistics);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} games in {files} file{} ({} pairs{}), from {player}'s view",
        wdl.games(),
        if files == 1 { "" } else { "s" },
        count.tally.pairs.pairs(),
        match count.unpaired {
            0 => String::new(),
            1 => ", 1 game without its pair".to_owned(),
            n => format!(", {n} games without their pair"),
        },
    );
    let _ = writeln!(
        out,
        "W-D-L {}-{}-{} ({:.1} %), pentanomial {:?}",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * wdl.score().unwrap_or(0.5),
        count.tally.pairs.counts
    );
    let los = match figures.los {
        Ok(los) => format!("{:.1} %", 100.0 * los),
        Err(why) => format!("n/a ({why})"),
    };
    let nelo = match figures.nelo {
        Ok(e) => format!("{} ± {:.1}", signed(e.elo), e.error()),
        Err(why) => format!("n/a ({why})"),
    };
    let _ = writeln!(out, "Elo {}, nElo {nelo}, LOS {los} ({statistics})", elo_text(figures.elo));
    out
}

/// The files' names and texts.
pub(super) fn read_files(paths: &[PathBuf]) -> std::result::Result<Vec<(String, String)>, String> {
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((path.display().to_string(), text))
        })
        .collect()
}

/// The state of `sprt` over the games of `count`.
pub(super) fn sprt_outcome(sprt: Sprt, count: &Count) -> SprtOutcome {
    let llr = sprt.llr(count.tally.wdl, count.tally.pairs);
    SprtOutcome { sprt, llr, decision: sprt.decision(llr) }
}

pub fn run(args: &ScoreArgs) -> Result<ExitCode> {
    // The SPRT's settings are checked before any file is read.
    let sprt = args.sprt.as_deref().map(|values| settings::parse_sprt(values, args.statistics)).transpose()?;
    let files = read_files(&args.pgn)?;
    let (count, player) = count(&files, args.player.as_deref())?;
    print!("{}", report(&count, &player, files.len(), args.statistics));
    if let Some(sprt) = sprt {
        println!("SPRT {}", sprt_text(&sprt_outcome(sprt, &count)));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: u32, white: &str, black: &str, result: &str) -> String {
        format!(
            "[Event \"Cutoff match\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n\n1. Kb1 {{+0.00/1 0.001s}} {result}\n\n"
        )
    }

    #[test]
    fn pairs_within_each_file() {
        // File a: pair 1 = A wins as White and draws as Black (3 half-points), pair 2 = A loses
        // both, then game 5 without its partner. File b: its rounds 1 and 2 are a pair of its
        // own (A wins both), not the partners of a's game 5.
        let a = [
            game(1, "A", "B", "1-0"),
            game(2, "B", "A", "1/2-1/2"),
            game(4, "A", "B", "0-1"),
            game(3, "B", "A", "1-0"),
            game(5, "A", "B", "1/2-1/2"),
        ]
        .concat();
        let b = [game(2, "A", "B", "1-0"), game(1, "B", "A", "0-1")].concat();
        let (count, player) = count(&[("a".into(), a), ("b".into(), b)], None).unwrap();
        assert_eq!(player, "A");
        assert_eq!(count.tally.wdl, super::super::stats::Wdl { wins: 3, draws: 2, losses: 2 });
        assert_eq!(count.tally.pairs.counts, [1, 0, 0, 1, 1]);
        assert_eq!(count.unpaired, 1);
        let text = report(&count, &player, 2, Statistics::Pentanomial);
        assert!(text.starts_with("7 games in 2 files (3 pairs, 1 game without its pair), from A's view\n"), "{text}");
        assert!(text.contains("W-D-L 3-2-2 (57.1 %), pentanomial [1, 0, 0, 1, 1]"), "{text}");
    }

    #[test]
    fn parts_counted_apart_add_up_to_the_parts_counted_together() {
        // What `cargo xtask match --continue-from` does: the earlier parts' count plus the new
        // part's must be the count of all the files, so the SPRT sees the match as one.
        let a = [game(1, "A", "B", "1-0"), game(2, "B", "A", "1/2-1/2"), game(3, "A", "B", "0-1")].concat();
        let b =
            [game(2, "B", "A", "0-1"), game(1, "A", "B", "1-0"), game(4, "B", "A", "1-0"), game(3, "A", "B", "1-0")]
                .concat();
        let (first, _) = count(&[("a".into(), a.clone())], Some("A")).unwrap();
        let (second, _) = count(&[("b".into(), b.clone())], Some("A")).unwrap();
        let (both, _) = count(&[("a".into(), a), ("b".into(), b)], Some("A")).unwrap();
        assert_eq!(first.tally.wdl + second.tally.wdl, both.tally.wdl);
        assert_eq!(first.tally.pairs + second.tally.pairs, both.tally.pairs);
        assert_eq!(both.tally.wdl, super::super::stats::Wdl { wins: 4, draws: 1, losses: 2 });
        assert_eq!(both.tally.pairs.counts, [0, 0, 1, 1, 1]);
        let sprt = settings::parse_sprt(
            &["elo0=0".to_owned(), "elo1=10".to_owned(), "model=logistic".to_owned()],
            Statistics::Pentanomial,
        )
        .unwrap();
        let outcome = sprt_outcome(sprt, &both);
        assert_eq!(outcome.llr, sprt.llr(both.tally.wdl, both.tally.pairs));
        assert!(outcome.llr > 0.0, "pairs [0, 0, 1, 1, 1] favour H1: {}", outcome.llr);
        assert!(sprt_text(&outcome).ends_with("no decision yet"), "{}", sprt_text(&outcome));
    }

    #[test]
    fn the_default_player_is_white_in_round_1() {
        // Games are written as they finish, so the file's first game can be engine 2's White.
        let text = [game(2, "B", "A", "1-0"), game(1, "A", "B", "1/2-1/2")].concat();
        let (count, player) = count(&[("f".into(), text)], None).unwrap();
        assert_eq!(player, "A");
        assert_eq!(count.tally.wdl, super::super::stats::Wdl { wins: 0, draws: 1, losses: 1 });
    }

    #[test]
    fn the_other_players_view_mirrors_it() {
        let text = [game(1, "A", "B", "1-0"), game(2, "B", "A", "1-0")].concat();
        let (count, _) = count(&[("f".into(), text)], Some("B")).unwrap();
        assert_eq!(count.tally.wdl, super::super::stats::Wdl { wins: 1, draws: 0, losses: 1 });
        assert_eq!(count.tally.pairs.counts, [0, 0, 1, 0, 0]);
    }

    #[test]
    fn games_that_cannot_be_counted_are_errors() {
        let cases = [
            (
                [game(1, "A", "B", "1-0"), game(2, "C", "B", "1-0")].concat(),
                "game 2 in the file: \"A\" does not play it",
            ),
            (game(1, "A", "B", "*"), "result \"*\" is not a finished game"),
            ([game(1, "A", "B", "1-0"), game(1, "B", "A", "1-0")].concat(), "Round 1 again"),
            (game(0, "A", "B", "1-0"), "is not a game number from 1"),
            ("no tags here\n".to_string(), "f: no games"),
        ];
        for (text, expected) in cases {
            let err = count(&[("f".into(), text)], None).unwrap_err();
            assert!(err.contains(expected), "{err} should say {expected}");
        }
    }

    #[test]
    fn escaped_names_are_read_back() {
        let tags = read_tags("[White \"a \\\"b\\\" \\\\c\"]\n[Black \"x\"]\n\n1. e4 *\n");
        assert_eq!(tags.len(), 1);
        assert_eq!(tags[0].white.as_deref(), Some("a \"b\" \\c"));
    }
}
