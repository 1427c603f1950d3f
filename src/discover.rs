//! Turning command-line paths into analysis units: crates and loose files.

// Keys are the user's own paths: no HashDoS to defend against.
use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};

/// What kind of source a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileKind {
    /// A Rust source file.
    Rust,
    /// A SQL migration.
    Sql,
}

/// One file to analyse.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileEntry {
    /// Path used to open the file.
    pub path: PathBuf,
    /// Path shown to the user.
    pub display: String,
    /// Rust or SQL.
    pub kind: FileKind,
    /// Read only as context for the files that are linted (a sibling in the
    /// same crate's `src/` that was not named, or that `--exclude`, the
    /// configuration or `.gitignore` drops): analysed, never reported.
    pub context: bool,
}

/// Files analysed together: one crate's `src/` tree, or one loose file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The crate directory, when the unit is a crate.
    pub crate_root: Option<PathBuf>,
    /// The files, sorted by display path.
    pub files: Vec<FileEntry>,
}

/// A path that could not be walked; reported as IDEM000, the rest goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkProblem {
    /// Path shown to the user.
    pub display: String,
    /// What went wrong.
    pub message: String,
}

/// The result of discovery.
#[derive(Debug, Default)]
pub struct Discovered {
    /// Analysis units in a deterministic order.
    pub units: Vec<Unit>,
    /// Entries the walker could not read.
    pub problems: Vec<WalkProblem>,
    /// Explicit paths that do not exist or cannot be read: the run fails (exit 2).
    pub fatal: Vec<WalkProblem>,
}

/// Options for the walk.
#[derive(Debug, Clone, Default)]
pub struct DiscoverOptions {
    /// Glob-like path fragments to skip (matched against the display path).
    pub exclude: Vec<String>,
}

/// Walks `paths` and groups the analysable files into units.
pub fn discover(paths: &[PathBuf], options: &DiscoverOptions) -> Discovered {
    let mut out = Discovered::default();
    let mut files = Vec::new();
    for path in paths {
        let given = display_path(path);
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(err) => {
                out.fatal.push(WalkProblem {
                    display: given,
                    message: describe_io(&err),
                });
                continue;
            }
        };
        if !meta.is_dir() {
            // A path named explicitly is always analysed, whatever its extension.
            let kind = kind_of(path).unwrap_or(FileKind::Rust);
            files.push(FileEntry {
                path: path.clone(),
                display: given,
                kind,
                context: false,
            });
            continue;
        }
        walk_dir(path, &mut files, &mut out.problems);
    }
    files.retain(|f| !is_excluded(&f.display, &options.exclude));
    add_crate_context(&mut files);
    // By display text: comparing `Path`s component by component costs more
    // than the rest of a warm run's walk. A file found both as linted and as
    // context sorts linted first, so that `dedup_by` keeps it linted.
    files.sort_by(|a, b| {
        (a.display.cmp(&b.display))
            .then_with(|| a.context.cmp(&b.context))
            .then_with(|| a.path.cmp(&b.path))
    });
    files.dedup_by(|a, b| a.display == b.display);
    out.units = group_units(files);
    out.problems.sort_by(|a, b| a.display.cmp(&b.display));
    out
}

/// Walks `root` on several threads (directories are listed in parallel);
/// the order found does not matter, as `discover` sorts.
fn walk_dir(root: &Path, files: &mut Vec<FileEntry>, problems: &mut Vec<WalkProblem>) {
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .parents(true)
        .require_git(false)
        .follow_links(true)
        .filter_entry(|entry| {
            !(entry.depth() > 0
                && entry.file_type().is_some_and(|t| t.is_dir())
                && entry.file_name() == "target")
        })
        .build_parallel();
    let found = std::sync::Mutex::new((Vec::new(), Vec::new()));
    walker.run(|| {
        Box::new(|entry| {
            let item = match entry {
                Ok(entry) => {
                    let is_file = entry.file_type().is_some_and(|t| t.is_file());
                    match kind_of(entry.path()) {
                        Some(kind) if is_file => Ok(FileEntry {
                            path: entry.path().to_path_buf(),
                            display: display_path(entry.path()),
                            kind,
                            context: false,
                        }),
                        _ => return ignore::WalkState::Continue,
                    }
                }
                Err(err) => Err(walk_problem(err)),
            };
            // A poisoned lock only means another visitor panicked; its data is whole.
            let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
            match item {
                Ok(file) => found.0.push(file),
                Err(problem) => found.1.push(problem),
            }
            ignore::WalkState::Continue
        })
    });
    let (mut walked, mut failed) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    files.append(&mut walked);
    problems.append(&mut failed);
}

/// Adds, as context, every Rust file under `src/` of the crates the linted
/// Rust files belong to: summaries cross files (a key-reading helper in
/// `keys.rs` decides what `handlers.rs` does with its result), so a file
/// linted without its siblings would lose findings. Ignore files and
/// exclusions do not apply here: they say what to report, not what the
/// code means. Problems of this walk are not reported (nothing of it is).
fn add_crate_context(files: &mut Vec<FileEntry>) {
    let mut manifests: HashMap<PathBuf, bool> = HashMap::default();
    let roots: std::collections::BTreeSet<PathBuf> = (files.iter())
        .filter(|f| f.kind == FileKind::Rust)
        .filter_map(|f| crate_root_of(&f.path, &mut manifests))
        .collect();
    if roots.is_empty() {
        return;
    }
    let known: rustc_hash::FxHashSet<String> = files.iter().map(|f| f.display.clone()).collect();
    for root in roots {
        let walker = ignore::WalkBuilder::new(root.join("src"))
            .standard_filters(false)
            .hidden(true)
            .follow_links(true)
            .filter_entry(|entry| {
                !(entry.depth() > 0
                    && entry.file_type().is_some_and(|t| t.is_dir())
                    && entry.file_name() == "target")
            })
            .build();
        for entry in walker.flatten() {
            let is_file = entry.file_type().is_some_and(|t| t.is_file());
            if !is_file || kind_of(entry.path()) != Some(FileKind::Rust) {
                continue;
            }
            let display = display_path(entry.path());
            if !known.contains(&display) {
                files.push(FileEntry {
                    path: entry.path().to_path_buf(),
                    display,
                    kind: FileKind::Rust,
                    context: true,
                });
            }
        }
    }
}

fn walk_problem(err: ignore::Error) -> WalkProblem {
    let mut path = None;
    let mut current = &err;
    // `ignore` nests the path and depth around the real cause.
    loop {
        match current {
            ignore::Error::WithPath { path: p, err } => {
                path.get_or_insert_with(|| display_path(p));
                current = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                current = err;
            }
            _ => break,
        }
    }
    let (display, message) = match current {
        ignore::Error::Loop { child, ancestor } => (
            display_path(child),
            format!(
                "symbolic link loop: {} points back to {}",
                display_path(child),
                display_path(ancestor)
            ),
        ),
        ignore::Error::Io(io) => (path.clone().unwrap_or_default(), describe_io(io)),
        other => (path.clone().unwrap_or_default(), other.to_string()),
    };
    WalkProblem { display, message }
}

fn describe_io(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => err.to_string(),
    }
}

fn kind_of(path: &Path) -> Option<FileKind> {
    match path.extension()?.to_str()? {
        "rs" => Some(FileKind::Rust),
        "sql" => Some(FileKind::Sql),
        _ => None,
    }
}

fn is_excluded(display: &str, exclude: &[String]) -> bool {
    exclude.iter().any(|pattern| {
        let pattern = pattern.trim_end_matches('/');
        display == pattern
            || display.starts_with(&format!("{pattern}/"))
            || display.split('/').any(|segment| segment == pattern)
    })
}

/// The path as the user gave it, without a leading `./`, with `/` separators.
pub fn display_path(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut text = text.as_str();
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    if text.is_empty() {
        ".".to_string()
    } else {
        text.to_string()
    }
}

/// Files under `<crate>/src/` are analysed together; everything else alone.
fn group_units(files: Vec<FileEntry>) -> Vec<Unit> {
    let mut crates: HashMap<PathBuf, Vec<FileEntry>> = HashMap::default();
    let mut loose = Vec::new();
    // Whether a directory holds a Cargo.toml: thousands of files share a few crates.
    let mut manifests: HashMap<PathBuf, bool> = HashMap::default();
    for file in files {
        match crate_root_of(&file.path, &mut manifests) {
            Some(root) if file.kind == FileKind::Rust => crates.entry(root).or_default().push(file),
            _ => loose.push(file),
        }
    }
    let mut units: Vec<Unit> = crates
        .into_iter()
        .map(|(root, files)| Unit {
            crate_root: Some(root),
            files,
        })
        .collect();
    units.extend(loose.into_iter().map(|file| Unit {
        crate_root: None,
        files: vec![file],
    }));
    // A unit of context files only (a crate nested in another's `src/`)
    // has nothing to report.
    units.retain(|unit| unit.files.iter().any(|f| !f.context));
    units.sort_by(|a, b| a.files[0].display.cmp(&b.files[0].display));
    units
}

/// The crate directory of a file under `<dir>/src/` where `<dir>/Cargo.toml` exists.
fn crate_root_of(path: &Path, manifests: &mut HashMap<PathBuf, bool>) -> Option<PathBuf> {
    let mut dir = path.parent();
    while let Some(current) = dir {
        if current.file_name().is_some_and(|n| n == "src") {
            let root = current.parent()?;
            let root_display = if root.as_os_str().is_empty() {
                Path::new(".")
            } else {
                root
            };
            let has_manifest = *manifests
                .entry(root.to_path_buf())
                .or_insert_with(|| root_display.join("Cargo.toml").is_file());
            if has_manifest {
                return Some(root.to_path_buf());
            }
        }
        dir = current.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_strips_dot_slash() {
        assert_eq!(display_path(Path::new("./src/a.rs")), "src/a.rs");
        assert_eq!(display_path(Path::new(".")), ".");
    }

    #[test]
    fn exclusion_matches_segments() {
        assert!(is_excluded("a/vendor/b.rs", &["vendor".into()]));
        assert!(is_excluded("gen/x.rs", &["gen/".into()]));
        assert!(!is_excluded("generated.rs", &["gen".into()]));
    }
}
