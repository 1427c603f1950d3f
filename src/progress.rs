//! A progress bar on stderr for runs long enough to wonder about (issue
//! 16): shown only to someone watching a terminal, only after about a
//! second, and never mixed into machine formats.

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

/// Units, files and bytes of Rust done so far, drawn on stderr once the run
/// is a second old, with a spinner and the elapsed time that move while a
/// long unit runs.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: Arc<AtomicBool>,
    files: Arc<AtomicU64>,
    /// Bytes of Rust in the units done, and in all units (issue 25: one
    /// 13 MB unit is most of a run; counting units alone showed nothing).
    bytes_done: Arc<AtomicU64>,
    bytes_total: Arc<AtomicU64>,
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
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} {bar:30} {pos}/{len} units, {msg} [{elapsed}]")
        {
            bar.set_style(style);
        }
        Progress {
            bar,
            started: Instant::now(),
            shown: Arc::new(AtomicBool::new(false)),
            files: Arc::new(AtomicU64::new(0)),
            bytes_done: Arc::new(AtomicU64::new(0)),
            bytes_total: Arc::new(AtomicU64::new(0)),
            finished: Arc::new(AtomicBool::new(false)),
        }
    }
}

impl Progress {
    /// Sets the number of units and their bytes of Rust, and starts the
    /// timer that shows the bar after the delay even while one long unit
    /// is still running (a spinner and the elapsed time keep moving).
    pub fn start(&self, units: usize, bytes: u64) {
        self.bar.set_length(units as u64);
        self.bytes_total.store(bytes, Ordering::Relaxed);
        self.bar.set_message(self.message(0));
        let me = self.clone();
        std::thread::spawn(move || {
            std::thread::sleep(DELAY);
            me.show_if_due();
        });
    }

    /// One unit of `files` files and `bytes` bytes of Rust is done.
    pub fn unit_done(&self, files: usize, bytes: u64) {
        let files = self.files.fetch_add(files as u64, Ordering::Relaxed) + files as u64;
        self.bytes_done.fetch_add(bytes, Ordering::Relaxed);
        self.bar.set_message(self.message(files));
        self.bar.inc(1);
        self.show_if_due();
    }

    /// `12 files, 3.1 of 13.0 MB`.
    fn message(&self, files: u64) -> String {
        let mb = |b: u64| b as f64 / 1_000_000.0;
        format!(
            "{files} files, {:.1} of {:.1} MB",
            mb(self.bytes_done.load(Ordering::Relaxed)),
            mb(self.bytes_total.load(Ordering::Relaxed))
        )
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
        progress.unit_done(4, 3_100_000);
        progress.unit_done(2, 0);
        assert_eq!(progress.bar.position(), 2);
        assert_eq!(progress.files.load(Ordering::Relaxed), 6);
        assert_eq!(progress.message(6), "6 files, 3.1 of 13.0 MB");
        assert!(!progress.shown.load(Ordering::Relaxed), "too early to show");
        progress.finish();
    }
}
