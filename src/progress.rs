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

/// Units and files done so far, drawn on stderr once the run is a second old.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: Arc<AtomicBool>,
    files: Arc<AtomicU64>,
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Progress")
    }
}

impl Default for Progress {
    fn default() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} units, {msg} files") {
            bar.set_style(style);
        }
        Progress {
            bar,
            started: Instant::now(),
            shown: Arc::new(AtomicBool::new(false)),
            files: Arc::new(AtomicU64::new(0)),
        }
    }
}

impl Progress {
    /// The run has `units` units to lint.
    pub fn start(&self, units: usize) {
        self.bar.set_length(units as u64);
    }

    /// One unit of `files` files is done (any worker thread).
    pub fn unit_done(&self, files: usize) {
        let files = self.files.fetch_add(files as u64, Ordering::Relaxed) + files as u64;
        self.bar.set_message(files.to_string());
        self.bar.inc(1);
        if due(self.started.elapsed(), self.shown.load(Ordering::Relaxed))
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Erases the bar before the report is written.
    pub fn finish(&self) {
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
    fn a_hidden_bar_counts_units_and_files() {
        let progress = Progress::default();
        progress.start(3);
        progress.unit_done(4);
        progress.unit_done(2);
        assert_eq!(progress.bar.position(), 2);
        assert_eq!(progress.files.load(Ordering::Relaxed), 6);
        assert!(!progress.shown.load(Ordering::Relaxed), "too early to show");
        progress.finish();
    }
}
