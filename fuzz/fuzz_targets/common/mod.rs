//! The oracle both analyser targets share: the pre-filter never changes a
//! finding of a file syn accepts.

use std::sync::OnceLock;

use idem_lint::lint::{lint_text, LintOptions};
use idem_lint::prefilter::Prefilter;
use idem_lint::Diagnostic;

fn setup() -> &'static (LintOptions, Prefilter) {
    static SETUP: OnceLock<(LintOptions, Prefilter)> = OnceLock::new();
    SETUP.get_or_init(|| {
        let options = LintOptions::default();
        let prefilter = Prefilter::new(&options.vocab);
        (options, prefilter)
    })
}

/// Lints `bytes` with and without the pre-filter (no panic, no stack
/// overflow either way) and compares the findings.
///
/// A file syn rejects is IDEM000 "cannot parse Rust" without the
/// pre-filter, while the pre-filter, which blanks the items it does not
/// select before parsing, may still analyse the rest when the error lies in
/// a blanked item: so findings are compared only for files that parse.
pub fn check(bytes: &[u8], shown: &str) {
    let (options, prefilter) = setup();
    let without = lint_text("fuzz.rs", bytes, options, None);
    let with = lint_text("fuzz.rs", bytes, options, Some(prefilter));
    let rejected = without
        .iter()
        .any(|d| d.code == "IDEM000" && d.message.starts_with("cannot parse Rust"));
    if rejected {
        return;
    }
    let findings = |d: &[Diagnostic]| -> Vec<Diagnostic> {
        d.iter().filter(|d| d.code != "IDEM000").cloned().collect()
    };
    assert_eq!(
        findings(&with),
        findings(&without),
        "the pre-filter changed findings:\n{shown}"
    );
}
