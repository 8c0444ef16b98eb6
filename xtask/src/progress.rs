//! Progress on stderr for the long xtask runs (perft suites, matches, tactics, the ordering
//! study), one helper for all of them.
//!
//! On a terminal it is an [`indicatif`] bar with a status message. In plain mode, for logs and
//! CI, it prints a status line whenever a tenth of the items is done or [`PLAIN_INTERVAL`] has
//! passed with something new to say, never one line per item. Plain mode is chosen
//! automatically when stderr is not a terminal, or with a command's `--plain`. Results go to
//! stdout as before; everything here goes to stderr.

use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// In plain mode, the longest wait between two status lines while something changes.
pub const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

/// In plain mode, a status line at least every `total / PLAIN_STEPS` items.
const PLAIN_STEPS: u64 = 10;

/// How often the bar redraws by itself (to keep the elapsed time moving).
const TICK: Duration = Duration::from_millis(250);

/// Whether progress should be plain lines: asked for, or stderr is not a terminal.
pub fn plain_wanted(flag: bool) -> bool {
    flag || !std::io::stderr().is_terminal()
}

/// A progress display over `total` items.
#[derive(Debug)]
pub struct Progress {
    total: u64,
    done: u64,
    message: String,
    output: Output,
}

#[derive(Debug)]
enum Output {
    Bar(ProgressBar),
    Plain(PlainLog),
}

/// The state of plain mode: when the last line was printed and what it said.
#[derive(Debug)]
struct PlainLog {
    label: String,
    start: Instant,
    last_time: Instant,
    last_done: u64,
    last_message: String,
    printed: bool,
    /// Items done before this run started ([`Progress::skip`]): they do not count in its rate.
    skipped: u64,
}

impl Progress {
    /// A progress display labelled `label` (the command, e.g. `perft`) over `total` items; plain
    /// lines if `plain` (see [`plain_wanted`]).
    pub fn new(label: &str, total: u64, plain: bool) -> Progress {
        let output = if plain {
            let now = Instant::now();
            Output::Plain(PlainLog {
                label: label.to_owned(),
                start: now,
                last_time: now,
                last_done: 0,
                last_message: String::new(),
                printed: false,
                skipped: 0,
            })
        } else {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {bar:24} {pos}/{len} (ETA {eta}) {wide_msg}",
            )
            .expect("the template is valid")
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_prefix(label.to_owned());
            bar.enable_steady_tick(TICK);
            Output::Bar(bar)
        };
        Progress { total, done: 0, message: String::new(), output }
    }

    /// The number of items done so far.
    #[cfg(test)]
    pub fn done(&self) -> u64 {
        self.done
    }

    /// The number of items in all.
    #[cfg(test)]
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Sets the status text shown after the counts.
    pub fn set_message(&mut self, message: impl Into<String>) {
        self.message = message.into();
        if let Output::Bar(bar) = &self.output {
            bar.set_message(self.message.clone());
        }
    }

    /// Marks `n` items done by an earlier run that this one continues (a resumed training, a
    /// perft suite or tuning run picked up again), so that the time left is estimated from this
    /// run's own rate.
    pub fn skip(&mut self, n: u64) {
        match &mut self.output {
            Output::Bar(bar) => {
                bar.inc(n);
                bar.reset_eta();
            }
            Output::Plain(log) => log.skipped += n,
        }
        self.inc_plain(n);
    }

    /// Marks `n` more items done (and prints a plain line if one is due).
    pub fn inc(&mut self, n: u64) {
        if let Output::Bar(bar) = &self.output {
            bar.inc(n);
        }
        self.inc_plain(n);
    }

    fn inc_plain(&mut self, n: u64) {
        self.done += n;
        self.tick();
    }

    /// Prints a plain line if one is due: a tenth of the items done since the last one, or
    /// [`PLAIN_INTERVAL`] passed and the counts or the message changed. Nothing on a terminal,
    /// where the bar redraws itself.
    pub fn tick(&mut self) {
        let Output::Plain(log) = &self.output else { return };
        let step = (self.total / PLAIN_STEPS).max(1);
        let changed = self.done != log.last_done || self.message != log.last_message;
        let due = self.done >= log.last_done + step || (changed && log.last_time.elapsed() >= PLAIN_INTERVAL);
        if due {
            self.print_plain();
        }
    }

    /// Prints `text` on its own line, above the bar on a terminal.
    pub fn println(&self, text: &str) {
        match &self.output {
            Output::Bar(bar) => bar.suspend(|| eprintln!("{text}")),
            Output::Plain(_) => eprintln!("{text}"),
        }
    }

    /// Ends the display: the bar stays on screen as it is; plain mode prints a last line unless
    /// the last one already said everything.
    pub fn finish(mut self) {
        match &self.output {
            Output::Bar(bar) => bar.finish(),
            Output::Plain(log) => {
                if !log.printed || self.done != log.last_done || self.message != log.last_message {
                    self.print_plain();
                }
            }
        }
    }

    fn print_plain(&mut self) {
        let Output::Plain(log) = &mut self.output else { return };
        let elapsed = log.start.elapsed();
        let left = time_left(self.done.saturating_sub(log.skipped), self.total.saturating_sub(self.done), elapsed);
        let line = plain_line(&log.label, self.done, self.total, &self.message, elapsed, left);
        // Progress is best effort: a closed stderr must not stop the run.
        let _ = writeln!(std::io::stderr().lock(), "{line}");
        log.last_time = Instant::now();
        log.last_done = self.done;
        log.last_message.clone_from(&self.message);
        log.printed = true;
    }
}

/// One plain status line: `perft: [ 12/100] standard, 1.2e9 nodes (35 s, 257 s left)`; the
/// time left is left out while unknown.
pub fn plain_line(
    label: &str,
    done: u64,
    total: u64,
    message: &str,
    elapsed: Duration,
    left: Option<Duration>,
) -> String {
    let width = total.to_string().len();
    let separator = if message.is_empty() { "" } else { " " };
    let left = left.map(|left| format!(", {:.0} s left", left.as_secs_f64())).unwrap_or_default();
    format!("{label}: [{done:>width$}/{total}]{separator}{message} ({:.0} s{left})", elapsed.as_secs_f64())
}

/// The time the `remaining` items should take at the rate of the `done` ones in `elapsed`;
/// unknown before the first one (and when nothing is left, no estimate is needed).
fn time_left(done: u64, remaining: u64, elapsed: Duration) -> Option<Duration> {
    (done > 0 && remaining > 0).then(|| elapsed.mul_f64(remaining as f64 / done as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines() {
        assert_eq!(
            plain_line("perft", 7, 120, "standard", Duration::from_millis(35_400), None),
            "perft: [  7/120] standard (35 s)"
        );
        assert_eq!(plain_line("match", 10, 10, "", Duration::ZERO, None), "match: [10/10] (0 s)");
        assert_eq!(
            plain_line("train", 30, 120, "", Duration::from_secs(60), Some(Duration::from_secs(180))),
            "train: [ 30/120] (60 s, 180 s left)"
        );
    }

    #[test]
    fn plain_mode_prints_every_tenth_not_every_item() {
        let mut progress = Progress::new("test", 100, true);
        let printed = |p: &Progress| match &p.output {
            Output::Plain(log) => (log.printed, log.last_done),
            Output::Bar(_) => unreachable!("plain mode"),
        };
        for _ in 0..9 {
            progress.inc(1);
        }
        assert_eq!(printed(&progress), (false, 0));
        progress.inc(1);
        assert_eq!(printed(&progress), (true, 10));
        progress.set_message("halfway");
        progress.tick();
        // A new message alone waits for the interval.
        assert_eq!(printed(&progress), (true, 10));
        for _ in 0..15 {
            progress.inc(1);
        }
        assert_eq!(printed(&progress), (true, 20));
        progress.finish();
    }

    #[test]
    fn the_time_left_comes_from_this_runs_rate() {
        assert_eq!(time_left(0, 10, Duration::from_secs(5)), None);
        assert_eq!(time_left(10, 0, Duration::from_secs(5)), None);
        assert_eq!(time_left(10, 30, Duration::from_secs(60)), Some(Duration::from_secs(180)));
        // Items an earlier run did count as done but not toward the rate.
        let mut progress = Progress::new("test", 100, true);
        progress.skip(40);
        progress.inc(10);
        assert_eq!(progress.done(), 50);
        let Output::Plain(log) = &progress.output else { unreachable!("plain mode") };
        assert_eq!(log.skipped, 40);
        assert_eq!((log.printed, log.last_done), (true, 50));
    }
}
