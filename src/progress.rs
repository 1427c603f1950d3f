//! A progress bar on stderr for runs long enough to wonder about (issue
//! 16): shown only to someone watching a terminal, only after about a
//! second, and never mixed into machine formats.

use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Runs shorter than this never show a bar: it would only flicker.
const DELAY: Duration = Duration::from_secs(1);

/// Whether a run shows progress: the report is for people (not JSON,
/// SARIF or rustc JSON), `--quiet` was not given, and stderr is a terminal
/// that can redraw a line (`TERM=dumb` cannot).
pub fn wanted(
    machine_format: bool,
    quiet: bool,
    stderr_terminal: bool,
    term: Option<&str>,
) -> bool {
    !machine_format && !quiet && stderr_terminal && term != Some("dumb")
}

/// Whether a hidden bar appears now.
fn due(elapsed: Duration, shown: bool) -> bool {
    !shown && elapsed >= DELAY
}

/// Work done so far: whole units, and the work inside the running ones
/// (issue 25: a 13 MB file is one unit and ran 16 s with a count of units
/// that could only go from 0 to 1).
#[derive(Debug, Default)]
struct Counts {
    /// Rust files parsed, and those of units done that were not.
    files: AtomicU64,
    /// Bytes of those files, and of all Rust files.
    bytes_done: AtomicU64,
    bytes_total: AtomicU64,
    /// Bytes of the files being parsed now (one parse of a huge file takes
    /// seconds and counts nothing until it ends).
    parsing: AtomicU64,
    /// Function evaluations done, and planned so far: every function of a
    /// unit once its index is built, and those evaluated again in later
    /// rounds of its summaries' fixpoint.
    functions_done: AtomicU64,
    functions_planned: AtomicU64,
}

/// A snapshot of the work done, as the bar shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    /// Units done.
    pub units: u64,
    /// Rust files parsed (or done with their unit).
    pub files: u64,
    /// Bytes of those files, and of all Rust files of the run.
    pub bytes_done: u64,
    /// Bytes of all Rust files of the run.
    pub bytes_total: u64,
    /// Bytes of the files being parsed now.
    pub parsing: u64,
    /// Function evaluations done.
    pub functions_done: u64,
    /// Function evaluations planned so far.
    pub functions_planned: u64,
}

impl fmt::Display for Work {
    /// `2 files, 3.1/13.0 MB, parsing 9.9 MB, 4100/11200 functions`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mb = |b: u64| b as f64 / 1_000_000.0;
        write!(
            f,
            "{} file{}, {:.1}/{:.1} MB",
            self.files,
            if self.files == 1 { "" } else { "s" },
            mb(self.bytes_done.min(self.bytes_total)),
            mb(self.bytes_total)
        )?;
        if self.parsing > 0 {
            write!(f, ", parsing {:.1} MB", mb(self.parsing))?;
        }
        if self.functions_planned > 0 {
            write!(
                f,
                ", {}/{} functions",
                self.functions_done, self.functions_planned
            )?;
        }
        Ok(())
    }
}

/// Units, files, bytes and function evaluations done so far, drawn on
/// stderr once the run is a second old, with a spinner and the elapsed
/// time. The counts are read each time the bar is drawn, so work inside a
/// unit (files parsed, functions evaluated: [`parsing`],
/// [`functions_planned`], [`function_done`]) moves the bar while one huge
/// unit runs.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: Arc<AtomicBool>,
    counts: Arc<Counts>,
    /// Set by [`Progress::finish`]: the timer that shows the bar gives up.
    finished: Arc<AtomicBool>,
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Progress")
    }
}

impl Default for Progress {
    fn default() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let counts = Arc::new(Counts::default());
        let work = counts.clone();
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} {bar:20} {pos}/{len} units, {work} [{elapsed}]")
        {
            bar.set_style(style.with_key(
                "work",
                move |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                    let _ = write!(w, "{}", snapshot(&work, state.pos()));
                },
            ));
        }
        Progress {
            bar,
            started: Instant::now(),
            shown: Arc::new(AtomicBool::new(false)),
            counts,
            finished: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// What `counts` say now, with `units` done.
fn snapshot(counts: &Counts, units: u64) -> Work {
    Work {
        units,
        files: counts.files.load(Ordering::Relaxed),
        bytes_done: counts.bytes_done.load(Ordering::Relaxed),
        bytes_total: counts.bytes_total.load(Ordering::Relaxed),
        parsing: counts.parsing.load(Ordering::Relaxed),
        functions_done: counts.functions_done.load(Ordering::Relaxed),
        functions_planned: counts.functions_planned.load(Ordering::Relaxed),
    }
}

impl Progress {
    /// Sets the number of units and their bytes of Rust, and starts the
    /// timer that shows the bar after the delay even while one long unit
    /// is still running (a spinner and the elapsed time keep moving).
    pub fn start(&self, units: usize, bytes: u64) {
        self.bar.set_length(units as u64);
        self.counts.bytes_total.store(bytes, Ordering::Relaxed);
        let me = self.clone();
        std::thread::spawn(move || {
            std::thread::sleep(DELAY);
            me.show_if_due();
        });
    }

    /// The work done so far.
    pub fn work(&self) -> Work {
        snapshot(&self.counts, self.bar.position())
    }

    /// Counts the work inside the unit about to run on this thread (all of
    /// a unit runs on one thread) until [`Unit::done`].
    pub fn unit(&self) -> Unit {
        let previous = CURRENT.with(|current| {
            current.replace(Some(Running {
                counts: self.counts.clone(),
                files: 0,
                bytes: 0,
            }))
        });
        Unit {
            progress: self.clone(),
            previous,
        }
    }

    fn show_if_due(&self) {
        if self.finished.load(Ordering::Relaxed) {
            return;
        }
        if due(self.started.elapsed(), self.shown.load(Ordering::Relaxed))
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(120));
        }
    }

    /// Erases the bar (the report follows).
    pub fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
        self.bar.finish_and_clear();
    }
}

/// The unit running on a thread and what of it is counted already.
struct Running {
    counts: Arc<Counts>,
    files: u64,
    bytes: u64,
}

thread_local! {
    static CURRENT: RefCell<Option<Running>> = const { RefCell::new(None) };
}

/// A unit being counted on this thread ([`Progress::unit`]).
pub struct Unit {
    progress: Progress,
    previous: Option<Running>,
}

impl Unit {
    /// The unit, of `files` files and `bytes` bytes of Rust, is done: what
    /// its work did not count yet (files it did not parse, a unit replayed
    /// from the cache) counts now.
    pub fn done(self, files: usize, bytes: u64) {
        let counted = CURRENT.with(|current| {
            (current.borrow().as_ref()).map_or((0, 0), |running| (running.files, running.bytes))
        });
        let counts = &self.progress.counts;
        let files = (files as u64).saturating_sub(counted.0);
        counts.files.fetch_add(files, Ordering::Relaxed);
        (counts.bytes_done).fetch_add(bytes.saturating_sub(counted.1), Ordering::Relaxed);
        self.progress.bar.inc(1);
        self.progress.show_if_due();
    }
}

impl Drop for Unit {
    fn drop(&mut self) {
        CURRENT.with(|current| *current.borrow_mut() = self.previous.take());
    }
}

/// Runs `count` on the counts of the unit running on this thread, if any.
fn with_running(count: impl FnOnce(&mut Running)) {
    CURRENT.with(|current| {
        if let Some(running) = current.borrow_mut().as_mut() {
            count(running);
        }
    });
}

/// The running unit parses a Rust file of `bytes` bytes until the guard
/// drops; then the file counts as parsed (however its parse ended).
pub fn parsing(bytes: usize) -> Parsing {
    let bytes = bytes as u64;
    with_running(|running| {
        (running.counts.parsing).fetch_add(bytes, Ordering::Relaxed);
    });
    Parsing { bytes }
}

/// A file being parsed ([`parsing`]).
pub struct Parsing {
    bytes: u64,
}

impl Drop for Parsing {
    fn drop(&mut self) {
        let bytes = self.bytes;
        with_running(|running| {
            running.files += 1;
            running.bytes += bytes;
            let counts = &running.counts;
            counts.parsing.fetch_sub(bytes, Ordering::Relaxed);
            counts.files.fetch_add(1, Ordering::Relaxed);
            counts.bytes_done.fetch_add(bytes, Ordering::Relaxed);
        });
    }
}

/// The running unit will evaluate `n` more functions.
pub fn functions_planned(n: usize) {
    with_running(|running| {
        (running.counts.functions_planned).fetch_add(n as u64, Ordering::Relaxed);
    });
}

/// The running unit evaluated one function.
pub fn function_done() {
    with_running(|running| {
        (running.counts.functions_done).fetch_add(1, Ordering::Relaxed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_people_at_a_terminal_see_progress() {
        assert!(wanted(false, false, true, Some("xterm-256color")));
        assert!(wanted(false, false, true, None));
        assert!(!wanted(true, false, true, None), "machine formats");
        assert!(!wanted(false, true, true, None), "--quiet");
        assert!(!wanted(false, false, false, None), "stderr piped or a file");
        assert!(!wanted(false, false, true, Some("dumb")), "cannot redraw");
    }

    #[test]
    fn the_bar_appears_once_after_the_delay() {
        assert!(!due(Duration::from_millis(300), false));
        assert!(due(Duration::from_millis(1500), false));
        assert!(!due(Duration::from_millis(1500), true), "already shown");
    }

    #[test]
    fn the_bar_appears_while_a_long_first_unit_runs() {
        let progress = Progress::default();
        progress.start(1, 13_000_000);
        std::thread::sleep(DELAY + Duration::from_millis(400));
        assert!(
            progress.shown.load(Ordering::Relaxed),
            "shown before any unit is done"
        );
        progress.finish();
    }

    #[test]
    fn a_hidden_bar_counts_units_and_files() {
        let progress = Progress::default();
        progress.start(3, 13_000_000);
        progress.unit().done(4, 3_100_000);
        progress.unit().done(2, 0);
        let work = progress.work();
        assert_eq!((work.units, work.files), (2, 6));
        assert_eq!(work.to_string(), "6 files, 3.1/13.0 MB");
        assert!(!progress.shown.load(Ordering::Relaxed), "too early to show");
        progress.finish();
    }

    #[test]
    fn work_inside_one_unit_moves_the_counts() {
        let progress = Progress::default();
        progress.start(1, 13_000_000);
        let unit = progress.unit();
        assert_eq!(progress.work().to_string(), "0 files, 0.0/13.0 MB");
        let parse = parsing(13_000_000);
        assert_eq!(
            progress.work().to_string(),
            "0 files, 0.0/13.0 MB, parsing 13.0 MB"
        );
        drop(parse);
        functions_planned(11_200);
        for _ in 0..4_100 {
            function_done();
        }
        let work = progress.work();
        assert_eq!(work.units, 0, "the unit is still running");
        assert_eq!(
            work.to_string(),
            "1 file, 13.0/13.0 MB, 4100/11200 functions"
        );
        // Done: what was counted inside is not counted again.
        unit.done(1, 13_000_000);
        let work = progress.work();
        assert_eq!(
            (work.units, work.files, work.bytes_done),
            (1, 1, 13_000_000)
        );
        progress.finish();
    }

    #[test]
    fn work_outside_a_unit_counts_nothing() {
        let progress = Progress::default();
        progress.start(1, 100);
        drop(parsing(100));
        function_done();
        {
            let _unit = progress.unit();
        }
        function_done();
        assert_eq!(progress.work().to_string(), "0 files, 0.0/0.0 MB");
        progress.finish();
    }
}
