//! The whole single-file pipeline on arbitrary bytes, with and without the
//! pre-filter: no panic, no stack overflow, and the filter never loses a
//! finding.
#![no_main]

use idem_lint::lint::{lint_text, LintOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let all = LintOptions {
        prefilter: false,
        ..LintOptions::default()
    };
    let without = lint_text("fuzz.rs", data, &all);
    let with = lint_text("fuzz.rs", data, &LintOptions::default());
    let findings = |d: &[idem_lint::Diagnostic]| -> Vec<idem_lint::Diagnostic> {
        d.iter().filter(|d| d.code != "IDEM000").cloned().collect()
    };
    assert_eq!(
        findings(&with),
        findings(&without),
        "the pre-filter changed findings"
    );
    // The tokenizer must accept anything the decoder accepts.
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = idem_lint::lex::tokens(text).count();
    }
});
