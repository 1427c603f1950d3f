//! Files a unit declares as test modules (`#[cfg(test)] mod tests_parse;`
//! beside `tests_parse.rs`): test support by where they are declared, as a
//! file under `tests/` or one starting `#![cfg(test)]` is by itself
//! (rules.md, "Test support is not analysed").

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::discover::FileEntry;
use crate::prefilter::test_gated_modules;

/// Per Rust file of a unit, whether a module declaration under a test
/// `cfg` in another of its files makes it test support: the module's own
/// file (`name.rs`, `name/mod.rs`) and every file below it.
pub(super) fn test_module_files(rust: &[(&FileEntry, Arc<String>)]) -> Vec<bool> {
    let by_path: HashMap<&Path, usize> = (rust.iter().enumerate())
        .map(|(n, (entry, _))| (entry.path.as_path(), n))
        .collect();
    let mut test = vec![false; rust.len()];
    let mut test_dirs: Vec<PathBuf> = Vec::new();
    for (entry, text) in rust {
        if !text.contains("#[cfg") {
            continue;
        }
        let names = test_gated_modules(text);
        if names.is_empty() {
            continue;
        }
        let dir = child_module_dir(&entry.path);
        for name in names {
            for file in [
                dir.join(format!("{name}.rs")),
                dir.join(name).join("mod.rs"),
            ] {
                if let Some(&n) = by_path.get(file.as_path()) {
                    test[n] = true;
                }
            }
            test_dirs.push(dir.join(name));
        }
    }
    if !test_dirs.is_empty() {
        for (n, (entry, _)) in rust.iter().enumerate() {
            test[n] |= test_dirs.iter().any(|d| entry.path.starts_with(d));
        }
    }
    test
}

/// Where the modules a file declares live: beside a `mod.rs`, `lib.rs` or
/// `main.rs`, else in the folder named for the file (`a/b.rs` → `a/b/`).
fn child_module_dir(path: &Path) -> PathBuf {
    let parent = path.parent().unwrap_or(Path::new(""));
    match path.file_stem().and_then(|s| s.to_str()) {
        Some("mod" | "lib" | "main") | None => parent.to_path_buf(),
        Some(stem) => parent.join(stem),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::FileKind;

    fn entry(path: &str) -> FileEntry {
        FileEntry {
            path: PathBuf::from(path),
            display: path.to_string(),
            kind: FileKind::Rust,
            context: false,
        }
    }

    #[test]
    fn modules_declared_under_a_test_cfg_are_test_files() {
        let entries = [
            entry("src/idem/mod.rs"),
            entry("src/idem/tests_parse.rs"),
            entry("src/idem/service.rs"),
            entry("src/idem/fixtures/mod.rs"),
            entry("src/idem/fixtures/data.rs"),
            entry("src/lib.rs"),
            entry("src/helpers.rs"),
        ];
        let texts = [
            "mod service;\n#[cfg(test)]\nmod tests_parse;\n#[cfg(any(test, feature = \"testing\"))]\n#[allow(dead_code)]\npub(crate) mod fixtures;",
            "",
            "",
            "pub mod data;",
            "",
            "pub mod idem;\n#[cfg(feature = \"redis\")]\nmod helpers;",
            "",
        ];
        let rust: Vec<(&FileEntry, Arc<String>)> = (entries.iter())
            .zip(texts)
            .map(|(e, t)| (e, Arc::new(t.to_string())))
            .collect();
        assert_eq!(
            test_module_files(&rust),
            vec![false, true, false, true, true, false, false]
        );
    }
}
