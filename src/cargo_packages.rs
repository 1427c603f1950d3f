//! What `cargo idem-lint` lints: the package in the current directory, or
//! the whole workspace from its root manifest, `--workspace`, `-p NAME`,
//! `--manifest-path PATH`, resolved as cargo does with `cargo metadata
//! --no-deps` (read with serde_json: the `cargo_metadata` crate would bring
//! a dozen crates for three fields). Each chosen package contributes its
//! whole directory, as clippy covers the package: `src/`, `tests/`,
//! `examples/`, `migrations/*.sql`; a member nested in a chosen package's
//! directory that is not chosen itself is excluded and named as skipped.
//! Without cargo the caller falls back to linting `.`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

/// Which packages the command line asks for.
#[derive(Debug, Default, Clone)]
pub struct Selection {
    /// `--manifest-path`: the manifest to start from instead of the nearest one.
    pub manifest_path: Option<PathBuf>,
    /// `--workspace`: every member.
    pub workspace: bool,
    /// `-p/--package`: these members (by name).
    pub packages: Vec<String>,
}

impl Selection {
    /// Whether any package option was given.
    pub fn is_given(&self) -> bool {
        self.manifest_path.is_some() || self.workspace || !self.packages.is_empty()
    }
}

/// Why the packages could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum PackagesError {
    /// No `Cargo.toml` here or above (and none named).
    #[error("could not find `Cargo.toml` in `{0}` or any parent directory")]
    NoManifest(String),
    /// cargo could not be run at all: the caller falls back to `.`.
    #[error("cannot run `{cargo} metadata`: {source}")]
    NoCargo {
        /// The program tried (`$CARGO` or `cargo`).
        cargo: String,
        /// Why it did not start.
        source: std::io::Error,
    },
    /// `cargo metadata` failed (a broken manifest): its own message.
    #[error("`cargo metadata` failed:\n{0}")]
    Metadata(String),
    /// Its output was not the documented JSON.
    #[error("cannot read `cargo metadata` output: {0}")]
    Output(#[from] serde_json::Error),
    /// A `-p` name that is no member.
    #[error(
        "package ID specification `{name}` did not match any packages{hint}\n\nworkspace members: {members}"
    )]
    UnknownPackage {
        /// The name given.
        name: String,
        /// `; did you mean ..?` or nothing.
        hint: String,
        /// Every member's name, comma separated.
        members: String,
    },
}

/// The part of `cargo metadata --format-version 1` we read.
#[derive(Debug, Deserialize)]
struct Metadata {
    packages: Vec<Package>,
    workspace_root: PathBuf,
}

#[derive(Debug, Deserialize)]
struct Package {
    name: String,
    manifest_path: PathBuf,
}

/// What `cargo idem-lint` lints.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LintRoots {
    /// Each chosen package's directory, relative to `cwd` when under it; a
    /// package inside another chosen one is covered by it, not repeated.
    pub paths: Vec<PathBuf>,
    /// Members inside a chosen package's directory that were not chosen:
    /// excluded from the walk (as `--exclude` paths).
    pub skipped: Vec<PathBuf>,
}

impl LintRoots {
    /// The stderr note naming what was skipped (`None`: nothing was):
    /// `skipped 3 packages inside the linted one: a, b, c (..)`.
    pub fn skipped_note(&self) -> Option<String> {
        const SHOWN: usize = 4;
        let n = self.skipped.len();
        if n == 0 {
            return None;
        }
        let mut names: Vec<String> = (self.skipped.iter().take(SHOWN))
            .map(|p| format!("{}/", p.display()))
            .collect();
        if n > SHOWN {
            names.push(format!("and {} more", n - SHOWN));
        }
        Some(format!(
            "skipped {n} package{} inside the linted ones (a `Cargo.toml` of their own): {} (a workspace member with `-p NAME` or `--workspace`, any directory with `idem-lint DIR`)",
            if n == 1 { "" } else { "s" },
            names.join(", ")
        ))
    }
}

/// The directories to lint for `selection`, run from `cwd`.
pub fn lint_roots(selection: &Selection, cwd: &Path) -> Result<LintRoots, PackagesError> {
    let manifest = match &selection.manifest_path {
        Some(path) => cwd.join(path),
        None => nearest_manifest(cwd)
            .ok_or_else(|| PackagesError::NoManifest(cwd.display().to_string()))?,
    };
    let metadata = cargo_metadata(&manifest)?;
    let chosen = choose(&metadata, &manifest, selection)?;
    Ok(roots(&metadata, &chosen, cwd))
}

/// The chosen packages' directories, and the members nested in them that
/// were not chosen.
fn roots(metadata: &Metadata, chosen: &[&Package], cwd: &Path) -> LintRoots {
    let dirs: Vec<PathBuf> = chosen.iter().map(|p| package_dir(p)).collect();
    let inside = |dir: &Path, of: &Path| dir != of && dir.starts_with(of);
    let mut out = LintRoots::default();
    for dir in &dirs {
        if !dirs.iter().any(|outer| inside(dir, outer)) {
            out.paths.push(relative(dir, cwd));
        }
    }
    // Members and other crates (fixtures, fuzz targets) with a manifest of
    // their own inside a chosen package are not part of it, as `cargo
    // package` leaves them out.
    let members = metadata.packages.iter().map(package_dir);
    let mut nested: Vec<PathBuf> = members
        .chain(dirs.iter().flat_map(|d| nested_manifests(d)))
        .collect();
    nested.sort();
    nested.dedup();
    for dir in nested {
        let within = dirs.iter().any(|outer| inside(&dir, outer));
        let covered = dirs
            .iter()
            .any(|chosen| dir.starts_with(chosen) && !inside(&dir, chosen));
        let under_skipped = out.skipped.iter().any(|s| dir.starts_with(cwd.join(s)));
        if within && !covered && !under_skipped {
            out.skipped.push(relative(&dir, cwd));
        }
    }
    out
}

/// Directories below `dir` (not `dir` itself) holding a `Cargo.toml`, by
/// the walk linting uses (`.gitignore`, no hidden directories, no
/// `target/`).
fn nested_manifests(dir: &Path) -> Vec<PathBuf> {
    ignore::WalkBuilder::new(dir)
        .filter_entry(|e| e.file_name() != "target")
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.depth() > 1 && e.file_name() == "Cargo.toml")
        .filter_map(|e| e.path().parent().map(Path::to_path_buf))
        .collect()
}

/// The nearest `Cargo.toml` at or above `dir`.
pub fn nearest_manifest(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join("Cargo.toml"))
        .find(|m| m.is_file())
}

/// Runs `cargo metadata --no-deps` (cargo sets `$CARGO` for subcommands,
/// so the same toolchain answers).
fn cargo_metadata(manifest: &Path) -> Result<Metadata, PackagesError> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(&cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(manifest)
        .output()
        .map_err(|source| PackagesError::NoCargo {
            cargo: cargo.clone(),
            source,
        })?;
    if !output.status.success() {
        return Err(PackagesError::Metadata(
            String::from_utf8_lossy(&output.stderr)
                .trim_end()
                .to_string(),
        ));
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

/// cargo's choice: `-p` names, else `--workspace` or the workspace root's
/// manifest means every member, else the package of `manifest`.
fn choose<'m>(
    metadata: &'m Metadata,
    manifest: &Path,
    selection: &Selection,
) -> Result<Vec<&'m Package>, PackagesError> {
    if !selection.packages.is_empty() {
        return selection
            .packages
            .iter()
            .map(|name| find_member(metadata, name))
            .collect();
    }
    let at_root = same_file(manifest, &metadata.workspace_root.join("Cargo.toml"));
    if selection.workspace || at_root {
        return Ok(metadata.packages.iter().collect());
    }
    Ok(metadata
        .packages
        .iter()
        .filter(|p| same_file(&p.manifest_path, manifest))
        .collect())
}

fn find_member<'m>(metadata: &'m Metadata, name: &str) -> Result<&'m Package, PackagesError> {
    if let Some(package) = metadata.packages.iter().find(|p| p.name == name) {
        return Ok(package);
    }
    let names: Vec<&str> = metadata.packages.iter().map(|p| p.name.as_str()).collect();
    let closest = names
        .iter()
        .map(|n| (strsim::jaro_winkler(n, name), *n))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    Err(PackagesError::UnknownPackage {
        name: name.to_string(),
        hint: closest.map_or_else(String::new, |(_, n)| format!("; did you mean `{n}`?")),
        members: names.join(", "),
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A package's directory (where its manifest is).
fn package_dir(package: &Package) -> PathBuf {
    package
        .manifest_path
        .parent()
        .map_or_else(PathBuf::new, Path::to_path_buf)
}

/// `path` relative to `cwd` (`../beta/src` from a sibling member): reports
/// show relative paths unless the user named an absolute one.
fn relative(path: &Path, cwd: &Path) -> PathBuf {
    let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let shared = cwd
        .components()
        .zip(path.components())
        .take_while(|(a, b)| a == b)
        .count();
    if shared == 0 {
        return path;
    }
    let ups = cwd.components().count() - shared;
    let mut out: PathBuf = std::iter::repeat_n("..", ups).collect();
    out.extend(path.components().skip(shared));
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata() -> Metadata {
        Metadata {
            packages: vec![
                Package {
                    name: "alpha".into(),
                    manifest_path: "/ws/alpha/Cargo.toml".into(),
                },
                Package {
                    name: "beta".into(),
                    manifest_path: "/ws/beta/Cargo.toml".into(),
                },
            ],
            workspace_root: "/ws".into(),
        }
    }

    #[test]
    fn unknown_package_lists_members_and_suggests() {
        let err = find_member(&metadata(), "alpah").expect_err("unknown");
        let text = err.to_string();
        assert!(text.contains("did you mean `alpha`"), "{text}");
        assert!(text.contains("workspace members: alpha, beta"), "{text}");
    }

    #[test]
    fn root_manifest_means_every_member() {
        let meta = metadata();
        let all =
            choose(&meta, Path::new("/ws/Cargo.toml"), &Selection::default()).expect("chosen");
        assert_eq!(all.len(), 2);
        let one = choose(
            &meta,
            Path::new("/ws/beta/Cargo.toml"),
            &Selection::default(),
        )
        .expect("chosen");
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].name, "beta");
    }

    #[test]
    fn a_member_inside_a_chosen_package_is_covered_or_skipped() {
        let meta = Metadata {
            packages: vec![
                Package {
                    name: "root".into(),
                    manifest_path: "/nonexistent/ws/Cargo.toml".into(),
                },
                Package {
                    name: "inner".into(),
                    manifest_path: "/nonexistent/ws/inner/Cargo.toml".into(),
                },
            ],
            workspace_root: "/nonexistent/ws".into(),
        };
        let cwd = Path::new("/nonexistent/ws");
        let all: Vec<&Package> = meta.packages.iter().collect();
        assert_eq!(
            roots(&meta, &all, cwd),
            LintRoots {
                paths: vec![PathBuf::from(".")],
                skipped: vec![],
            }
        );
        assert_eq!(
            roots(&meta, &all[..1], cwd),
            LintRoots {
                paths: vec![PathBuf::from(".")],
                skipped: vec![PathBuf::from("inner")],
            }
        );
        assert_eq!(
            roots(&meta, &all[1..], cwd),
            LintRoots {
                paths: vec![PathBuf::from("inner")],
                skipped: vec![],
            }
        );
    }

    #[test]
    fn the_skipped_note_names_a_few_and_counts_the_rest() {
        let roots = |n: usize| LintRoots {
            paths: vec![],
            skipped: (1..=n).map(|i| PathBuf::from(format!("p{i}"))).collect(),
        };
        assert_eq!(roots(0).skipped_note(), None);
        assert_eq!(
            roots(6).skipped_note().as_deref(),
            Some("skipped 6 packages inside the linted ones (a `Cargo.toml` of their own): p1/, p2/, p3/, p4/, and 2 more (a workspace member with `-p NAME` or `--workspace`, any directory with `idem-lint DIR`)")
        );
    }

    #[test]
    fn paths_are_relative_to_the_current_directory() {
        let cwd = Path::new("/nonexistent/ws/alpha");
        let rel = |p: &str| relative(Path::new(p), cwd);
        assert_eq!(rel("/nonexistent/ws/alpha/src"), Path::new("src"));
        assert_eq!(rel("/nonexistent/ws/beta/src"), Path::new("../beta/src"));
        assert_eq!(rel("/nonexistent/ws/alpha"), Path::new("."));
    }
}
