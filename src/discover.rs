//! Turning command-line paths into analysis units: crates and loose files.

pub mod dependencies;
mod targets;

use targets::Packages;

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
    let exclude = match Exclude::new(&options.exclude) {
        Ok(exclude) => exclude,
        Err(problem) => {
            out.fatal.push(problem);
            return out;
        }
    };
    files.retain(|f| !exclude.matches(&f.display));
    let mut packages = Packages::default();
    add_crate_context(&mut files, &mut packages);
    // By display text: comparing `Path`s component by component costs more
    // than the rest of a warm run's walk. A file found both as linted and as
    // context sorts linted first, so that `dedup_by` keeps it linted.
    files.sort_by(|a, b| {
        (a.display.cmp(&b.display))
            .then_with(|| a.context.cmp(&b.context))
            .then_with(|| a.path.cmp(&b.path))
    });
    files.dedup_by(|a, b| a.display == b.display);
    out.units = group_units(files, &mut packages);
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
        .filter_entry(|entry| !is_build_output(entry) && !is_test_support_dir(entry))
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
                // Issue 25: a self-referential link named like no Rust or
                // SQL file (`notes.txt`) holds nothing to lint; not a finding.
                Err(err) if is_irrelevant_loop(&err) => return ignore::WalkState::Continue,
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

/// Adds, as context, every Rust file of the packages the linted Rust files
/// belong to (their targets' source directories, without the files of
/// packages nested there): summaries cross files (a key-reading helper in
/// `keys.rs` decides what `handlers.rs` does with its result), so a file
/// linted without its siblings would lose findings. Ignore files and
/// exclusions do not apply here: they say what to report, not what the
/// code means. Problems of this walk are not reported (nothing of it is).
fn add_crate_context(files: &mut Vec<FileEntry>, packages: &mut Packages) {
    let roots: std::collections::BTreeSet<PathBuf> = (files.iter())
        .filter(|f| f.kind == FileKind::Rust)
        .filter_map(|f| packages.package_of(&f.path))
        .collect();
    if roots.is_empty() {
        return;
    }
    let known: rustc_hash::FxHashSet<String> = files.iter().map(|f| f.display.clone()).collect();
    for root in roots {
        let mut seen = rustc_hash::FxHashSet::default();
        for dir in packages.source_dirs(&root) {
            let walker = ignore::WalkBuilder::new(&dir)
                .standard_filters(false)
                .hidden(true)
                .follow_links(true)
                .filter_entry(|entry| !is_build_output(entry))
                .build();
            for entry in walker.flatten() {
                let is_file = entry.file_type().is_some_and(|t| t.is_file());
                if !is_file || kind_of(entry.path()) != Some(FileKind::Rust) {
                    continue;
                }
                let display = display_path(entry.path());
                if known.contains(&display) || !seen.insert(display.clone()) {
                    continue;
                }
                // A package nested in this one's sources is a unit of its own.
                if packages.package_of(entry.path()).as_deref() != Some(root.as_path()) {
                    continue;
                }
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

/// A `target/` directory below a walk's root: cargo's build output, never sources.
fn is_build_output(entry: &ignore::DirEntry) -> bool {
    entry.depth() > 0
        && entry.file_type().is_some_and(|t| t.is_dir())
        && entry.file_name() == "target"
}

/// A `tests/` or `benches/` directory below a walk's root: integration tests
/// and benchmarks are test support, not analysed (rules.md). A file there
/// named explicitly is still linted.
fn is_test_support_dir(entry: &ignore::DirEntry) -> bool {
    entry.depth() > 0
        && entry.file_type().is_some_and(|t| t.is_dir())
        && (entry.file_name() == "tests" || entry.file_name() == "benches")
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
        _ if is_link_loop(err) => {
            "cannot read: a symbolic link loop (the link leads back to itself)".to_string()
        }
        _ => err.to_string(),
    }
}

// Issue 25 (unreadable paths), kept apart from the walk above.

/// `ELOOP`, "too many levels of symbolic links" (std has no stable
/// `ErrorKind` for it).
fn is_link_loop(err: &std::io::Error) -> bool {
    const ELOOP: i32 = if cfg!(target_os = "linux") { 40 } else { 62 };
    cfg!(unix) && err.raw_os_error() == Some(ELOOP)
}

/// A walk error for a link that resolves back to itself (not a directory
/// link into an ancestor: that one is reported as a loop) whose name is no
/// `*.rs`/`*.sql` file.
fn is_irrelevant_loop(err: &ignore::Error) -> bool {
    let mut path = None;
    let mut current = err;
    loop {
        match current {
            ignore::Error::WithPath { path: p, err } => {
                path.get_or_insert(p.clone());
                current = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                current = err;
            }
            ignore::Error::Io(io) => {
                return is_link_loop(io) && path.is_some_and(|p| kind_of(&p).is_none())
            }
            _ => return false,
        }
    }
}

fn kind_of(path: &Path) -> Option<FileKind> {
    match path.extension()?.to_str()? {
        "rs" => Some(FileKind::Rust),
        "sql" => Some(FileKind::Sql),
        _ => None,
    }
}

/// The `--exclude` patterns. Each is one of: a glob (`**/generated/**`,
/// `src/*.rs`; `*` stays within a directory) matched against the display path
/// and each of its parent directories; an absolute path, which excludes
/// itself and everything under it; or a plain path (`./x` is `x`), which
/// excludes a path equal to it or under it, or any path with a segment of
/// that name.
#[derive(Debug, Default)]
struct Exclude {
    plain: Vec<String>,
    absolute: Vec<PathBuf>,
    globs: globset::GlobSet,
    /// To make relative display paths absolute for `absolute`.
    cwd: PathBuf,
}

impl Exclude {
    /// Compiles `patterns`; an invalid glob is a fatal problem (exit 2).
    fn new(patterns: &[String]) -> Result<Exclude, WalkProblem> {
        let mut exclude = Exclude::default();
        let mut globs = globset::GlobSetBuilder::new();
        for pattern in patterns {
            let normal = display_path(Path::new(pattern.trim_end_matches(['/', '\\'])));
            if Path::new(pattern).is_absolute() {
                // Also the real path: the working directory, which relative
                // display paths are joined to, comes with links resolved.
                let path = normalize(Path::new(&normal));
                if let Ok(real) = std::fs::canonicalize(&path) {
                    exclude.absolute.push(real);
                }
                exclude.absolute.push(path);
            } else if normal.contains(['*', '?', '[', '{']) {
                let glob = globset::GlobBuilder::new(&normal)
                    .literal_separator(true)
                    .build()
                    .map_err(|err| WalkProblem {
                        display: pattern.clone(),
                        message: format!("invalid --exclude glob: {}", err.kind()),
                    })?;
                globs.add(glob);
            } else {
                exclude.plain.push(normal);
            }
        }
        exclude.globs = globs.build().map_err(|err| WalkProblem {
            display: patterns.join(", "),
            message: format!("invalid --exclude glob: {err}"),
        })?;
        if !exclude.absolute.is_empty() {
            exclude.cwd = std::env::current_dir().unwrap_or_default();
        }
        Ok(exclude)
    }

    /// Whether the file shown as `display` is excluded.
    fn matches(&self, display: &str) -> bool {
        let plain = self.plain.iter().any(|pattern| {
            display == pattern
                || display.starts_with(&format!("{pattern}/"))
                || display.split('/').any(|segment| segment == pattern)
        });
        plain || self.matches_glob(display) || self.matches_absolute(display)
    }

    fn matches_glob(&self, display: &str) -> bool {
        if self.globs.is_empty() {
            return false;
        }
        let mut path = Some(Path::new(display));
        while let Some(current) = path.filter(|p| !p.as_os_str().is_empty()) {
            if self.globs.is_match(current) {
                return true;
            }
            path = current.parent();
        }
        false
    }

    fn matches_absolute(&self, display: &str) -> bool {
        if self.absolute.is_empty() {
            return false;
        }
        let path = normalize(&self.cwd.join(display));
        self.absolute
            .iter()
            .any(|pattern| path.starts_with(pattern))
    }
}

/// `path` with `.` and `..` folded (without touching the file system).
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
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

/// The Rust sources of one package are analysed together; everything else alone.
fn group_units(files: Vec<FileEntry>, packages: &mut Packages) -> Vec<Unit> {
    let mut crates: HashMap<PathBuf, Vec<FileEntry>> = HashMap::default();
    let mut loose = Vec::new();
    for file in files {
        match packages.package_of(&file.path) {
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
    // A unit of context files only has nothing to report.
    units.retain(|unit| unit.files.iter().any(|f| !f.context));
    units.sort_by(|a, b| a.files[0].display.cmp(&b.files[0].display));
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_strips_dot_slash() {
        assert_eq!(display_path(Path::new("./src/a.rs")), "src/a.rs");
        assert_eq!(display_path(Path::new(".")), ".");
    }

    fn excluded(display: &str, pattern: &str) -> bool {
        Exclude::new(&[pattern.to_string()])
            .expect("valid")
            .matches(display)
    }

    #[test]
    fn exclusion_matches_segments() {
        assert!(excluded("a/vendor/b.rs", "vendor"));
        assert!(excluded("gen/x.rs", "gen/"));
        assert!(!excluded("generated.rs", "gen"));
    }

    #[test]
    fn exclusion_accepts_dot_slash_and_globs() {
        assert!(excluded("migrations/0001.sql", "./migrations"));
        assert!(excluded("migrations/0001.sql", "./migrations/"));
        assert!(excluded("src/generated/x.rs", "**/generated/**"));
        assert!(excluded("generated/y.rs", "**/generated/**"));
        assert!(!excluded("src/generated.rs", "**/generated/**"));
        assert!(excluded("src/gen_a/x.rs", "src/gen_*"));
        assert!(excluded("src/a.rs", "src/*.rs"));
        assert!(!excluded("src/deep/a.rs", "src/*.rs"));
        assert!(Exclude::new(&["src/[a".to_string()]).is_err());
    }
}
