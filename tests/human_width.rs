//! At 80 columns (`COLUMNS=80`, what a terminal 80 columns wide gives)
//! every line of the human report fits in 80 columns: source lines cut
//! with `…`, label lines (`· │ ╰── route component`), help text with code
//! in it, headers and notes (issue 25: label lines reached 102 columns,
//! help code 88, a cut source line 83). And a source line is cut the same
//! way in every snippet that shows it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use unicode_width::UnicodeWidthStr;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The human report of `paths` at `columns` columns, run in `dir`.
fn human(dir: &Path, paths: &[&str], columns: usize) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(paths)
        .args(["--color", "never", "--no-cache"])
        .env("COLUMNS", columns.to_string())
        .current_dir(dir)
        .output()
        .expect("runs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Lines of `report` wider than `columns`, with their widths.
fn too_wide(report: &str, columns: usize) -> Vec<String> {
    report
        .lines()
        .filter(|line| line.width() > columns)
        .map(|line| format!("{:3}: {line}", line.width()))
        .collect()
}

/// Every source line of every snippet by (file, line number), as shown
/// after the gutter (and the bars of multi-line labels, which differ by
/// snippet). Fails on a line shown two ways.
fn source_lines_shown_one_way(report: &str) -> usize {
    let mut shown: BTreeMap<(String, usize), String> = BTreeMap::new();
    let mut file = String::new();
    for line in report.lines() {
        let trimmed = line.trim_start();
        if let Some(header) = trimmed.strip_prefix("╭─[") {
            assert!(!header.starts_with('…'), "a shortened path: {line}");
            let location = header.trim_end_matches(']');
            let mut parts = location.rsplitn(3, ':');
            file = parts.nth(2).unwrap_or(location).to_string();
            continue;
        }
        let Some((number, text)) = trimmed.split_once(" │ ") else {
            continue;
        };
        let Ok(number) = number.parse::<usize>() else {
            continue;
        };
        let text = text.trim_start_matches(['│', '╭', '├', '─', '▶', ' ']);
        let previous = shown.insert((file.clone(), number), text.to_string());
        if let Some(previous) = previous {
            assert_eq!(
                previous, text,
                "{file}:{number} is shown two ways:\n{report}"
            );
        }
    }
    shown.len()
}

#[test]
fn the_demo_fits_80_columns() {
    let report = human(Path::new(MANIFEST_DIR), &["fixtures/demo"], 80);
    assert!(report.contains("IDEM002"), "findings rendered:\n{report}");
    let wide = too_wide(&report, 80);
    assert!(wide.is_empty(), "wider than 80:\n{}", wide.join("\n"));
    assert!(source_lines_shown_one_way(&report) > 20);
    // Code in help text breaks between tokens, never inside one.
    assert!(
        report.contains(
            "`let scoped_key = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id,\n        \"route\", &key)?;`"
        ),
        "help code broken between tokens:\n{report}"
    );
}

#[test]
fn every_fixture_fits_80_and_60_columns() {
    let root = Path::new(MANIFEST_DIR);
    for columns in [80, 60] {
        let report = human(root, &["fixtures"], columns);
        assert!(report.contains("IDEM008"), "findings rendered:\n{report}");
        let wide = too_wide(&report, columns);
        assert!(
            wide.is_empty(),
            "{} lines wider than {columns}:\n{}",
            wide.len(),
            wide.join("\n")
        );
    }
    // Each folder on its own: its paths are short enough for every header
    // to name its file whole (a long one is shortened to its last parts).
    let mut folders: Vec<_> = std::fs::read_dir(root.join("fixtures"))
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut lines = 0;
    for folder in &folders {
        for columns in [80, 60] {
            lines += source_lines_shown_one_way(&human(folder, &["."], columns));
        }
    }
    assert!(lines > 1000, "{lines} source lines shown");
}

/// Long lines of every kind: a finding far right on a 200-column line, one
/// on a line of tabs and wide characters, a multi-line span, and the same
/// lines in several snippets.
#[test]
fn long_lines_fit_and_are_cut_one_way() {
    let dir = tempfile::tempdir().expect("tempdir");
    let padding = "x".repeat(120);
    let text = format!(
        "use axum::http::HeaderMap;\n\n\
         fn far_right(s: &Store, h: &HeaderMap, tenant: &str) {{\n    \
         let k = h.get(\"Idempotency-Key\").unwrap().to_str().unwrap();\n    \
         let _unused = \"{padding}\"; s.set(format!(\"{{}}:{{}}\", tenant, k), 1); let _after = \"{padding}\";\n\
         }}\n\n\
         fn tabs(s: &Store, h: &HeaderMap, tenant: &str) {{\n\
         \tlet k = h.get(\"Idempotency-Key\").unwrap().to_str().unwrap(); // 鍵 {padding}\n\
         \t\ts.set(format!(\"{{}}:{{}}\", tenant, k), 1); // 日本語のコメント {padding}\n\
         }}\n\n\
         fn multi_line(s: &Store, h: &HeaderMap, tenant: &str) {{\n    \
         let k = h.get(\"Idempotency-Key\").unwrap().to_str().unwrap(); // {padding}\n    \
         s.set(\n        format!(\n            \"{{}}:{{}}\", // {padding}\n            \
         tenant,\n            k,\n        ),\n        1,\n    );\n\
         }}\n"
    );
    std::fs::write(dir.path().join("long.rs"), text).expect("write");
    for columns in [80, 50] {
        let report = human(dir.path(), &["long.rs"], columns);
        assert!(
            report.matches("IDEM001").count() >= 3,
            "findings rendered:\n{report}"
        );
        let wide = too_wide(&report, columns);
        assert!(
            wide.is_empty(),
            "wider than {columns}:\n{}\n\n{report}",
            wide.join("\n")
        );
        assert!(source_lines_shown_one_way(&report) > 10);
        // The finding far right on its line is shown, cut on both sides.
        let far = (report.lines())
            .find(|l| l.contains("format!(\"{}:{}\", tenant, k), 1); let"))
            .expect("the far-right span is shown");
        let text = far.split_once(" │ ").expect("a source line").1;
        assert!(
            text.starts_with('…') && text.ends_with('…'),
            "cut on both sides: {far}"
        );
    }
}
