//! Helpers shared by the integration tests (each test file that needs
//! them says `mod common;`).

use std::path::Path;

/// Copies `from` into `to`, recursively.
#[allow(dead_code)] // not every test file that says `mod common;` uses it
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The crates (directories with a `Cargo.toml`) directly in `dir`, sorted;
/// fails the test when there are none.
#[allow(dead_code)] // not every test file that says `mod common;` uses it
pub fn crates_in(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut crates: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .expect("ecosystem dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    crates.sort();
    assert!(!crates.is_empty(), "{} holds no crates", dir.display());
    crates
}
