//! Paths as CI systems want them: relative to the directory idem-lint runs
//! from (the repository root in CI), with `/` separators.

use std::path::{Component, Path, PathBuf};

/// A diagnostic's file, placed relative to the source root where possible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootedPath {
    /// Relative to the source root, `/`-separated, without `.` segments.
    Relative(String),
    /// An absolute path outside the source root.
    Absolute(PathBuf),
}

/// Places the display path `display` relative to `root` (usually the current
/// directory). Display paths are already relative unless the user named an
/// absolute path, so this mostly strips `./` and resolves `a/../b` lexically.
pub fn rooted(display: &str, root: Option<&Path>) -> RootedPath {
    let path = Path::new(display);
    if path.is_absolute() {
        return match root.and_then(|r| path.strip_prefix(r).ok()) {
            Some(rest) => RootedPath::Relative(normalise(rest)),
            None => RootedPath::Absolute(path.to_path_buf()),
        };
    }
    RootedPath::Relative(normalise(path))
}

/// Joins the normal components with `/`, dropping `.` and folding `x/..`.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            Component::ParentDir => {
                if parts.last().is_some_and(|p| p != "..") {
                    parts.pop();
                } else {
                    parts.push("..".to_string());
                }
            }
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
        }
    }
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_normalised() {
        assert_eq!(
            rooted("./src/a.rs", None),
            RootedPath::Relative("src/a.rs".into())
        );
        assert_eq!(
            rooted("src/x/../a.rs", None),
            RootedPath::Relative("src/a.rs".into())
        );
        assert_eq!(
            rooted("../other/a.rs", None),
            RootedPath::Relative("../other/a.rs".into())
        );
    }

    #[test]
    fn absolute_paths_under_the_root_become_relative() {
        let root = Path::new("/work/repo");
        assert_eq!(
            rooted("/work/repo/src/a.rs", Some(root)),
            RootedPath::Relative("src/a.rs".into())
        );
        assert_eq!(
            rooted("/elsewhere/a.rs", Some(root)),
            RootedPath::Absolute(PathBuf::from("/elsewhere/a.rs"))
        );
    }
}
