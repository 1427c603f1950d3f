//! The progress bar counts work inside a unit (issue 25: a 13 MB file is
//! one unit and ran 16 s while the bar, counting units, stood at 0/1): the
//! pipeline reports each file it parses and each function it evaluates.
//! No timings are asserted; the bar itself is drawn only after a second on
//! a terminal, and never for machine formats (`progress::wanted`).

use idem_lint::progress::Progress;
use idem_lint::{lint_paths, LintOptions};

/// Functions in each of the crate's files.
const FUNCTIONS: usize = 40;

#[test]
fn one_unit_counts_its_files_and_functions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let krate = dir.path().join("service");
    std::fs::create_dir_all(krate.join("src")).expect("mkdir");
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"service\"\nversion = \"0.1.0\"\n",
    )
    .expect("write");
    for file in ["lib", "charges", "refunds"] {
        let mut text = String::from("use axum::http::HeaderMap;\n\n");
        for i in 0..FUNCTIONS {
            text.push_str(&format!(
                "pub fn {file}{i}(s: &Store, h: &HeaderMap, tenant: &str) {{\n    \
                 let k = h.get(\"Idempotency-Key\").unwrap().to_str().unwrap();\n    \
                 s.set(format!(\"{{}}:{{}}\", tenant, k), 1);\n}}\n"
            ));
        }
        std::fs::write(krate.join("src").join(format!("{file}.rs")), text).expect("write");
    }
    let progress = Progress::default();
    let options = LintOptions {
        progress: Some(progress.clone()),
        ..LintOptions::default()
    };
    let result = lint_paths(&[krate], &options).expect("lint");
    assert_eq!(result.files_analyzed, 3);
    let work = progress.work();
    assert_eq!((work.units, work.files), (1, 3), "{work:?}");
    assert_eq!(work.bytes_done, work.bytes_total, "{work:?}");
    // Function evaluations are counted only inside the unit, as they run:
    // every function once, and again in a later round of the fixpoint.
    assert!(
        work.functions_planned >= 3 * FUNCTIONS as u64,
        "every function is planned: {work:?}"
    );
    assert_eq!(work.functions_done, work.functions_planned, "{work:?}");
    assert!(
        work.to_string().starts_with("3 files, ") && work.to_string().contains(" functions"),
        "{work}"
    );
}
