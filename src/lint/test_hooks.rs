//! Hooks for the tests, compiled only with the `test-hooks` feature (the
//! test command enables it; release builds never carry it).

/// When set, analysing a unit with a file containing this text panics,
/// proving that a panic becomes IDEM000 instead of killing the run.
const PANIC_ENV: &str = "IDEM_LINT_TEST_PANIC_MARKER";

/// Panics when one of `texts` contains the marker named by [`PANIC_ENV`].
pub(super) fn panic_if_marked<'a>(texts: impl IntoIterator<Item = &'a str>) {
    let Some(marker) = std::env::var_os(PANIC_ENV) else {
        return;
    };
    let marker = marker.to_string_lossy();
    if texts.into_iter().any(|text| text.contains(&*marker)) {
        panic!("{PANIC_ENV} found: forced panic");
    }
}
