//! Which package a Rust file belongs to, as cargo's targets say.
//!
//! A file belongs to the nearest enclosing directory whose `Cargo.toml` has
//! a `[package]`, if it lies under one of that package's source
//! directories: `src/` (cargo's default targets) and the directory of every
//! `[lib]` and `[[bin]]` `path`. A workspace member that keeps its sources
//! beside its own manifest under the root's `src/<member>/` (`[lib] path =
//! "mod.rs"`, as matrix-construct/tuwunel does) is its own unit, not part of
//! one workspace-sized unit; a virtual manifest (a `[workspace]` alone) owns
//! no files. Manifests are read without cargo: `cargo metadata` would need
//! cargo on the machine and a resolvable workspace, and says nothing more
//! about where a target's sources are.

use std::path::{Component, Path, PathBuf};

// Keys are the user's own paths: no HashDoS to defend against.
use rustc_hash::FxHashMap as HashMap;

/// What one directory's `Cargo.toml` says about the files under it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Manifest {
    /// No `Cargo.toml`, or a virtual one: the files belong further up.
    None,
    /// A package, with the directories of its targets' sources (relative to
    /// the package directory; empty for the package directory itself).
    Package { source_dirs: Vec<PathBuf> },
}

/// Manifests read so far, by directory: thousands of files share a few packages.
#[derive(Debug, Default)]
pub(super) struct Packages {
    read: HashMap<PathBuf, Manifest>,
}

/// Directories that hold a package's tests, benchmarks and examples: never
/// part of its library or binaries, even when a target's path is the
/// package directory itself.
const NOT_TARGET_SOURCES: &[&str] = &["tests", "benches", "examples", "target"];

impl Packages {
    /// The package directory `path` is a source of, if any.
    pub(super) fn package_of(&mut self, path: &Path) -> Option<PathBuf> {
        let mut dir = path.parent();
        while let Some(current) = dir {
            if let Manifest::Package { source_dirs } = self.manifest(current) {
                let inside = path.strip_prefix(current).ok()?;
                return is_target_source(inside, source_dirs).then(|| current.to_path_buf());
            }
            dir = current.parent();
        }
        None
    }

    /// The directories under `package` that hold its targets' sources.
    pub(super) fn source_dirs(&mut self, package: &Path) -> Vec<PathBuf> {
        match self.manifest(package) {
            Manifest::Package { source_dirs } => {
                source_dirs.iter().map(|d| package.join(d)).collect()
            }
            Manifest::None => Vec::new(),
        }
    }

    fn manifest(&mut self, dir: &Path) -> &Manifest {
        self.read
            .entry(dir.to_path_buf())
            .or_insert_with(|| read_manifest(dir))
    }
}

/// Whether `inside` (a path relative to the package directory) lies under
/// one of `source_dirs`.
fn is_target_source(inside: &Path, source_dirs: &[PathBuf]) -> bool {
    source_dirs.iter().any(|dir| {
        let Ok(rest) = inside.strip_prefix(dir) else {
            return false;
        };
        // A target at the package root owns its modules, not its tests.
        !(dir.as_os_str().is_empty()
            && rest.components().next().is_some_and(|first| {
                rest.components().count() > 1
                    && NOT_TARGET_SOURCES.iter().any(|n| first.as_os_str() == *n)
            }))
    })
}

fn read_manifest(dir: &Path) -> Manifest {
    let shown = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let path = shown.join("Cargo.toml");
    if !path.is_file() {
        return Manifest::None;
    }
    // An unreadable or invalid manifest still marks a package with cargo's
    // default layout: cargo would refuse it, but its `src/` is still Rust.
    let Some(table) = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
    else {
        return Manifest::Package {
            source_dirs: vec![PathBuf::from("src")],
        };
    };
    if !table.contains_key("package") && !table.contains_key("project") {
        return Manifest::None;
    }
    let mut source_dirs = vec![PathBuf::from("src")];
    let lib = table.get("lib").into_iter();
    let bins = (table.get("bin").and_then(|b| b.as_array()))
        .into_iter()
        .flatten();
    for target in lib.chain(bins) {
        let Some(target_path) = target.get("path").and_then(|p| p.as_str()) else {
            continue;
        };
        if let Some(dir) = relative_dir(Path::new(target_path)) {
            if !source_dirs.contains(&dir) {
                source_dirs.push(dir);
            }
        }
    }
    Manifest::Package { source_dirs }
}

/// The directory of a target's `path`, relative to the package, when it
/// stays inside the package (`../shared/lib.rs` would claim another tree).
fn relative_dir(target: &Path) -> Option<PathBuf> {
    let mut dir = PathBuf::new();
    let parent = target.parent()?;
    for component in parent.components() {
        match component {
            Component::Normal(part) => dir.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, path: &str, text: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn members_beside_their_manifests_under_the_roots_src_are_their_own_packages() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        write(root, "Cargo.toml", "[workspace]\nmembers = [\"src/*\"]\n");
        write(
            root,
            "src/api/Cargo.toml",
            "[package]\nname = \"api\"\n[lib]\npath = \"mod.rs\"\n",
        );
        write(root, "src/api/mod.rs", "");
        write(root, "src/api/client/send.rs", "");
        write(
            root,
            "src/main/Cargo.toml",
            "[package]\nname = \"main\"\n[[bin]]\nname = \"x\"\npath = \"main.rs\"\n",
        );
        write(root, "src/main/main.rs", "");
        write(root, "src/main/tests/smoke.rs", "");
        let mut packages = Packages::default();
        let api = root.join("src/api");
        assert_eq!(
            packages.package_of(&root.join("src/api/client/send.rs")),
            Some(api.clone())
        );
        assert_eq!(packages.package_of(&root.join("src/api/mod.rs")), Some(api));
        assert_eq!(
            packages.package_of(&root.join("src/main/main.rs")),
            Some(root.join("src/main"))
        );
        // Tests of a package whose target sits at its root are not its sources.
        assert_eq!(
            packages.package_of(&root.join("src/main/tests/smoke.rs")),
            None
        );
    }

    #[test]
    fn a_package_with_cargos_defaults_owns_its_src_only() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        write(root, "Cargo.toml", "[package]\nname = \"svc\"\n");
        let mut packages = Packages::default();
        assert_eq!(
            packages.package_of(&root.join("src/handlers/charge.rs")),
            Some(root.to_path_buf())
        );
        assert_eq!(packages.package_of(&root.join("tests/it.rs")), None);
        assert_eq!(packages.package_of(&root.join("build.rs")), None);
        assert_eq!(packages.source_dirs(root), vec![root.join("src")]);
    }

    #[test]
    fn an_invalid_manifest_is_a_package_with_the_default_layout() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        write(root, "Cargo.toml", "[package\n");
        let mut packages = Packages::default();
        assert_eq!(
            packages.package_of(&root.join("src/lib.rs")),
            Some(root.to_path_buf())
        );
    }

    #[test]
    fn target_paths_outside_the_package_are_ignored() {
        assert_eq!(relative_dir(Path::new("../shared/lib.rs")), None);
        assert_eq!(
            relative_dir(Path::new("./server/main.rs")),
            Some(PathBuf::from("server"))
        );
        assert_eq!(relative_dir(Path::new("main.rs")), Some(PathBuf::new()));
    }
}
