//! End-to-end tests of the UCI handshake and the options: the `cutoff` binary is run as a
//! child process and driven over stdin/stdout like a GUI would. The other UCI tests are in
//! `uci_play.rs` (games and searches), `uci_input.rs` (bad input) and `uci_commands.rs`
//! (`go perft`, `bench`, `d`, `eval`); their helpers in `common/uci.rs`.

mod common;

use common::check::Search;
use common::uci::*;
use common::{Engine, TIMEOUT};
use cutoff_board::Board;

// ---------------------------------------------------------------------------------------
// The handshake: id, the options, uciok.

#[derive(Debug)]
struct UciOption {
    name: String,
    kind: String,
    default: Option<String>,
    min: Option<i64>,
    max: Option<i64>,
}

fn parse_option(line: &str) -> Option<UciOption> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = rest.split_once(" type ")?;
    let mut tokens = rest.split(' ');
    let kind = tokens.next()?.to_string();
    let mut opt = UciOption { name: name.to_string(), kind, default: None, min: None, max: None };
    while let Some(key) = tokens.next() {
        let value = tokens.next();
        match key {
            "default" => opt.default = value.map(str::to_string),
            "min" => opt.min = Some(value?.parse().ok()?),
            "max" => opt.max = Some(value?.parse().ok()?),
            _ => return None,
        }
    }
    Some(opt)
}

#[test]
fn handshake_reports_id_options_and_uciok() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until("uciok", |l| l == "uciok", TIMEOUT);
    let name = lines.iter().find_map(|l| l.strip_prefix("id name ")).map(str::to_string);
    let author = lines.iter().find_map(|l| l.strip_prefix("id author ")).map(str::to_string);
    e.ensure(name.as_deref().is_some_and(|n| n.starts_with("Cutoff")), format!("id name: {name:?}"));
    e.ensure(author.as_deref().is_some_and(|a| !a.trim().is_empty()), format!("id author: {author:?}"));
    let first_option = lines.iter().position(|l| l.starts_with("option ")).unwrap_or(lines.len());
    let ids = lines.iter().position(|l| l.starts_with("id author ")).unwrap_or(usize::MAX);
    e.ensure(ids < first_option, "the id lines must come before the options");

    let mut options = Vec::new();
    for line in &lines[..lines.len() - 1] {
        // `info string`: what the binary says about its build (tests/build_info.rs checks it).
        if line.starts_with("id ") || line.starts_with("info string ") {
            continue;
        }
        match parse_option(line) {
            Some(o) => options.push(o),
            None => e.fail(&format!("unexpected or malformed line during the handshake: '{line}'")),
        }
    }
    // The engine's options are the entries of its `OPTIONS` table: the handshake lists exactly
    // those, in their order, and no list is kept here.
    let declared: Vec<String> = cutoff_uci::option_lines().collect();
    let listed: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    e.ensure(listed == declared.iter().collect::<Vec<_>>(), format!("expected the declared options {declared:?}"));
    for (i, o) in options.iter().enumerate() {
        let name = &o.name;
        let ok = match o.kind.as_str() {
            "spin" => match (o.default.as_deref().map(str::parse::<i64>), o.min, o.max) {
                (Some(Ok(d)), Some(min), Some(max)) => min <= d && d <= max,
                _ => false,
            },
            "check" => matches!(o.default.as_deref(), Some("true" | "false")) && o.min.is_none(),
            // UCI writes an empty string default as `<empty>`.
            "string" => o.default.as_deref() == Some("<empty>") && o.min.is_none() && o.max.is_none(),
            "button" => o.default.is_none() && o.min.is_none() && o.max.is_none(),
            _ => false,
        };
        e.ensure(ok, format!("option '{name}' should be a well-formed spin, check, string or button: {o:?}"));
        let twice = options[i + 1..].iter().any(|b| b.name.eq_ignore_ascii_case(name));
        e.ensure(!twice, format!("option '{name}' declared twice"));
    }
    // The README's "Options:" paragraph names only options the engine declares: each name in
    // backticks whose words all start with a capital letter and are longer than a letter
    // (`Hash`, `Move Overhead`; not `UseNNUE false`, `info string` or `go movetime T`'s `T`)
    // is one of them. (It need not name them all: an option
    // is one entry of `OPTIONS`, and `uci` lists them.)
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("Options: ").expect("README.md has an \"Options: \" paragraph");
    let paragraph = &readme[start..];
    let paragraph = &paragraph[..paragraph.find("\n\n").unwrap_or(paragraph.len())];
    let named: Vec<&str> = paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| name.split(' ').all(|word| word.len() > 1 && word.starts_with(|c: char| c.is_ascii_uppercase())))
        .collect();
    e.ensure(named.len() >= 10, format!("README.md's options paragraph names too few options: {named:?}"));
    for name in named {
        e.ensure(options.iter().any(|o| o.name == name), format!("README.md names `{name}`, which is not an option"));
    }
    // Names and defaults that GUIs rely on.
    let find = |name: &str| options.iter().find(|o| o.name == name);
    let default = |name: &str| find(name).and_then(|o| o.default.clone()).unwrap_or_default();
    e.ensure(default("UCI_Chess960") == "false", "UCI_Chess960 must default to false");
    e.ensure(default("Ponder") == "false", "Ponder should default to false");
    e.ensure(default("UCI_ShowWDL") == "false", "UCI_ShowWDL must default to false");
    e.ensure(default("UCI_LimitStrength") == "false", "UCI_LimitStrength must default to false");
    e.ensure(default("OwnBook") == "false", "OwnBook must default to false (match tools bring their own openings)");
    e.ensure(default("Threads") == "1" && find("Threads").and_then(|o| o.min) == Some(1), "Threads: default 1, min 1");
    e.ensure(default("MultiPV") == "1" && find("MultiPV").and_then(|o| o.min) == Some(1), "MultiPV: default 1, min 1");
    e.ensure(find("Hash").and_then(|o| o.min).is_some_and(|m| m >= 1), "Hash min must be at least 1 MiB");
    e.ensure(find("Move Overhead").and_then(|o| o.min) == Some(0), "Move Overhead min 0");

    e.send("isready");
    e.expect_line("readyok", |l| l == "readyok", TIMEOUT);
    // Setting every spin, check and button to a valid value is accepted silently: each to its
    // default (each spin also to its minimum), then a few values that differ from the
    // defaults. (A string option names a file or folder, and setting it reports what it loaded:
    // tests/files.rs, nnue.rs, book.rs and syzygy.rs.)
    let mut commands = Vec::new();
    for o in &options {
        let name = &o.name;
        match (o.kind.as_str(), &o.default) {
            ("button", _) => commands.push(format!("setoption name {name}")),
            ("spin" | "check", Some(default)) => commands.push(format!("setoption name {name} value {default}")),
            _ => {}
        }
        if let Some(min) = o.min {
            commands.push(format!("setoption name {name} value {min}"));
        }
    }
    commands.extend(
        [
            "setoption name Hash value 8",
            "setoption name Ponder value true",
            "setoption name Move Overhead value 10",
            "setoption name UCI_Elo value 2000",
            "setoption name BookFile value <empty>",
            "setoption name hash value 16", // option names are case-insensitive
        ]
        .map(String::from),
    );
    for cmd in &commands {
        let out = e.command(cmd);
        e.ensure(out.is_empty(), format!("`{cmd}` should be accepted silently, got {out:?}"));
    }
    e.quit();
}

// ---------------------------------------------------------------------------------------
// Setting options: ranges, and the search parameters of a `tune` build.

/// One rule for every spin option: a number outside the declared range is
/// clamped to it, with an `info string` naming the range and the value used; a value that is
/// not a whole number is refused with an `info string` and the option keeps its value.
#[test]
fn spin_options_are_clamped_to_their_range() {
    let mut e = Engine::spawn();
    // Every spin option the engine declares, one beyond each end (above first, so that each
    // ends at its minimum: MultiPV 3 first, so that MultiPV 0, clamped to 1, is seen to change
    // it). No Hash or Threads above their maximum: 64 GiB of hash or 256 search threads are
    // too much for a test machine; the unit test of `options.rs` covers every option's ends.
    e.command("setoption name MultiPV value 3");
    let spins: Vec<UciOption> =
        cutoff_uci::option_lines().filter_map(|l| parse_option(&l)).filter(|o| o.kind == "spin").collect();
    e.ensure(spins.iter().any(|o| o.name == "MultiPV"), format!("no MultiPV among {spins:?}"));
    for o in &spins {
        let (name, min, max) = (&o.name, o.min.unwrap(), o.max.unwrap());
        let range = format!("{min} to {max}");
        let mut tries = vec![(format!("{}", min - 1), min), ("-99999999999999999999".to_string(), min)];
        if name != "Hash" && name != "Threads" {
            tries.insert(0, (format!("{}", max + 1), max));
            tries.insert(1, ("99999999999999999999".to_string(), max));
        }
        for (given, used) in tries {
            let out = e.command(&format!("setoption name {name} value {given}"));
            let expected =
                format!("info string setoption: '{name}' {given} is outside its range {range}; using {used}");
            e.ensure(out == [expected.clone()], format!("{name} {given}: expected [{expected:?}], got {out:?}"));
        }
    }
    // The clamped values are in use: MultiPV 0 gave one line, MultiPV 300 gives every move.
    e.send("position startpos");
    let b = Board::default();
    let s = search(&mut e, &b, "go depth 2");
    e.ensure(s.infos.iter().all(|i| i.multipv.unwrap_or(1) == 1), format!("MultiPV 0 -> 1 expected: {:?}", s.infos));
    let out = e.command("setoption name MultiPV value 300");
    e.ensure(
        out == ["info string setoption: 'MultiPV' 300 is outside its range 1 to 256; using 256"],
        format!("MultiPV 300: {out:?}"),
    );
    // The distinct `multipv` indices of the depth-2 lines.
    let lines = |s: &Search| {
        let set: std::collections::BTreeSet<u32> =
            s.infos.iter().filter(|i| i.depth == Some(2) && !i.pv.is_empty()).filter_map(|i| i.multipv).collect();
        set.into_iter().collect::<Vec<u32>>()
    };
    let s = search(&mut e, &b, "go depth 2");
    let shown = lines(&s);
    e.ensure(shown == (1..=20).collect::<Vec<u32>>(), format!("MultiPV 256: lines 1 to 20 expected, got {shown:?}"));
    // A value that is not a number is refused, and the option keeps its value.
    e.command("setoption name MultiPV value 3");
    for bad in ["three", "3.5", "0x3", "3 lines"] {
        let out = e.command(&format!("setoption name MultiPV value {bad}"));
        let expected = format!(
            "info string setoption: 'MultiPV' needs a whole number from 1 to 256, got '{bad}'; 'MultiPV' unchanged"
        );
        e.ensure(out == [expected.clone()], format!("MultiPV {bad}: expected [{expected:?}], got {out:?}"));
    }
    let s = search(&mut e, &b, "go depth 2");
    let shown = lines(&s);
    e.ensure(shown == [1, 2, 3], format!("MultiPV must still be 3: lines {shown:?} at depth 2"));
    // In range: no message.
    for value in ["Hash value 1", "Threads value 1", "UCI_Elo value 2200", "Move Overhead value 0", "MultiPV value 1"] {
        let out = e.command(&format!("setoption name {value}"));
        e.ensure(out.is_empty(), format!("setoption name {value}: no message expected, got {out:?}"));
    }
    e.quit();
}

/// `spsa` prints the search parameters in OpenBench's SPSA format; a normal build has no UCI
/// options for them (only a `tune` build does), and says so instead of failing silently.
#[test]
fn search_parameters_are_listed_for_spsa_and_fixed_in_normal_builds() {
    let mut e = Engine::spawn();
    let lines = e.command("spsa");
    e.ensure(lines.len() >= 20, format!("expected the parameter list, got {lines:?}"));
    for line in &lines {
        let fields: Vec<&str> = line.split(", ").collect();
        e.ensure(fields.len() == 7 && fields[1] == "int", format!("malformed SPSA line '{line}'"));
        let numbers: Vec<f64> = fields[2..].iter().filter_map(|f| f.parse().ok()).collect();
        e.ensure(numbers.len() == 5, format!("non-numeric field in '{line}'"));
        e.ensure(numbers[1] <= numbers[0] && numbers[0] <= numbers[2], format!("default outside its range: '{line}'"));
    }
    e.ensure(lines.iter().any(|l| l.starts_with("RFP_MARGIN, int, ")), "RFP_MARGIN missing");
    let answer = e.command("setoption name RFP_MARGIN value 90");
    e.ensure(
        answer.iter().any(|l| l.starts_with("info string") && l.contains("unknown option")),
        format!("a normal build should refuse search parameters, got {answer:?}"),
    );
    e.quit();
}
