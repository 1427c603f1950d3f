//! insta snapshots of the human rendering (no colour, 100 columns) of every
//! fixture file, so a change in wording, spans or labels shows up in review.
//! Like the fixture harness, they show every finding, `possible` ones too.

use std::path::{Path, PathBuf};

use idem_lint::model::diagnostic::Confidence;
use idem_lint::report::{self, Format, RenderOptions};
use idem_lint::{lint_paths, LintOptions, LintResult};

fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            fixture_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs" || x == "sql") {
            out.push(p);
        }
    }
}

#[test]
fn human_output_of_every_fixture_file() {
    let options = RenderOptions {
        color: false,
        width: 100,
        quiet: true,
        statistics: false,
    };
    let mut folders: Vec<PathBuf> = std::fs::read_dir("fixtures")
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for folder in folders {
        let every = LintOptions {
            confidence: Confidence::Possible,
            confidence_fixed: true,
            ..LintOptions::default()
        };
        let result = lint_paths(std::slice::from_ref(&folder), &every).expect("lint");
        let mut files = Vec::new();
        fixture_files(&folder, &mut files);
        for file in files {
            let display = file.to_string_lossy().replace('\\', "/");
            let only = LintResult {
                diagnostics: result
                    .diagnostics
                    .iter()
                    .filter(|d| d.path == display)
                    .cloned()
                    .collect(),
                files_analyzed: 1,
                sources: result.sources.clone(),
                fatal: Vec::new(),
                ..LintResult::default()
            };
            let rendered = report::render(&only, Format::Human, &options);
            let name = display
                .trim_start_matches("fixtures/")
                .replace(['/', '.'], "__");
            insta::with_settings!({ snapshot_path => "snapshots/human", prepend_module_to_snapshot => false, omit_expression => true }, {
                insta::assert_snapshot!(name, rendered);
            });
        }
    }
}
