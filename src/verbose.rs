//! `-v/--verbose`: what a run used and left out, on stderr. The
//! configuration each named path resolved to, and the `*.rs`/`*.sql` files
//! under the named directories that were not linted, with why (hidden,
//! `target/`, `--exclude`/`exclude`, or `.gitignore`/`.ignore`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::config::Settings;

/// `config: idem-lint.toml ([rules]) for src` or `config: built-in defaults for src`.
pub fn config_line(path: &Path, settings: &Settings) -> String {
    let source = match (&settings.source, settings.table) {
        (Some(file), Some(table)) => format!("{} [{table}]", file.display()),
        (Some(file), None) => file.display().to_string(),
        (None, _) => {
            "built-in defaults (no idem-lint.toml or Cargo.toml metadata found)".to_string()
        }
    };
    format!("config: {source} for {}", path.display())
}

/// The Rust and SQL files under `roots` that are not in `linted` (display
/// paths), each with why: `skipped: PATH (REASON)`.
pub fn skipped_lines(
    roots: &[PathBuf],
    linted: &BTreeSet<String>,
    exclude: &[String],
) -> Vec<String> {
    let mut out = Vec::new();
    for root in roots.iter().filter(|r| r.is_dir()) {
        let walk = ignore::WalkBuilder::new(root)
            .standard_filters(false)
            .build();
        for entry in walk.filter_map(Result::ok) {
            let path = entry.path();
            let wanted = path.extension().is_some_and(|x| x == "rs" || x == "sql");
            if !wanted || !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let display = crate::discover::display_path(path);
            if linted.contains(&display) {
                continue;
            }
            out.push(format!(
                "skipped: {display} ({})",
                reason(path, root, exclude)
            ));
        }
    }
    out.sort();
    out
}

/// Why the walk left `path` out.
fn reason(path: &Path, root: &Path, exclude: &[String]) -> &'static str {
    let inside = path.strip_prefix(root).unwrap_or(path);
    let names: Vec<String> = inside
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if names.iter().any(|n| n == "target") {
        "under target/"
    } else if names.iter().any(|n| n.starts_with('.')) {
        "hidden"
    } else if names.iter().any(|n| exclude.contains(n))
        || exclude
            .iter()
            .any(|e| inside.starts_with(e.trim_start_matches("./")))
    {
        "excluded by --exclude"
    } else {
        "ignored by .gitignore/.ignore, or by the configuration's exclude"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_name_the_rule_that_skipped() {
        let root = Path::new("r");
        assert_eq!(
            reason(Path::new("r/target/a.rs"), root, &[]),
            "under target/"
        );
        assert_eq!(reason(Path::new("r/.git/a.rs"), root, &[]), "hidden");
        assert_eq!(
            reason(Path::new("r/vendor/a.rs"), root, &["vendor".to_string()]),
            "excluded by --exclude"
        );
        assert_eq!(
            reason(Path::new("r/gen/a.rs"), root, &[]),
            "ignored by .gitignore/.ignore, or by the configuration's exclude"
        );
    }
}
