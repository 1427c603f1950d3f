//! `--diff-base REV`: keep only the findings whose primary span touches a
//! line changed since the merge base of `REV` and `HEAD`, as `ruff --diff`
//! and reviewdog do on pull requests.
//!
//! "Changed" is what `git diff -U0 $(git merge-base REV HEAD)` shows against
//! the working tree (so committed, staged and unstaged edits all count):
//! added and modified lines; a file git does not track yet counts whole.
//! The analysis itself is unchanged (whole units, as context); only the
//! report is narrowed, after the baseline is applied, so that baselined
//! findings on unchanged lines are not taken for fixed.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::model::LintResult;

/// Why the changed lines could not be found; the run fails (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum DiffBaseError {
    /// `git` could not be run at all.
    #[error("--diff-base needs git: {0}")]
    NoGit(std::io::Error),
    /// The current directory is not inside a git work tree.
    #[error("--diff-base: not in a git repository (run idem-lint from inside one)")]
    NotARepository,
    /// `REV` names no commit.
    #[error("--diff-base: unknown revision `{0}` (in CI, fetch it first: `fetch-depth: 0`)")]
    UnknownRevision(String),
    /// `REV` and `HEAD` share no history.
    #[error("--diff-base: `{0}` and HEAD have no common ancestor")]
    NoMergeBase(String),
    /// Another git failure, with git's own words.
    #[error("--diff-base: `git {command}` failed: {stderr}")]
    Git {
        /// The git subcommand and its arguments.
        command: String,
        /// What git printed.
        stderr: String,
    },
}

/// What changed in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileChange {
    /// A new (untracked or added) file: every line counts.
    Whole,
    /// 1-based line ranges added or modified.
    Lines(Vec<RangeInclusive<usize>>),
}

/// The lines changed since the merge base, by absolute path.
#[derive(Debug, Default)]
pub struct ChangedLines {
    files: BTreeMap<PathBuf, FileChange>,
}

impl ChangedLines {
    /// Asks git, in the current directory, what changed since the merge base
    /// of `rev` and `HEAD`.
    pub fn since(rev: &str) -> Result<ChangedLines, DiffBaseError> {
        let top = git(&["rev-parse", "--show-toplevel"])
            .map_err(|err| match err {
                DiffBaseError::Git { .. } => DiffBaseError::NotARepository,
                other => other,
            })?
            .trim_end_matches(['\n', '\r'])
            .to_string();
        let root = canonical(Path::new(&top));
        let commit = format!("{rev}^{{commit}}");
        if git(&["rev-parse", "--verify", "--quiet", &commit]).is_err() {
            return Err(DiffBaseError::UnknownRevision(rev.to_string()));
        }
        let base = git(&["merge-base", rev, "HEAD"])
            .map_err(|_| DiffBaseError::NoMergeBase(rev.to_string()))?;
        let base = base.trim();
        // Explicit prefixes and no external diff or text conversion: the
        // user's git configuration must not change what is parsed.
        let diff = git(&[
            "-c",
            "core.quotePath=false",
            "diff",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            "-U0",
            base,
            "--",
        ])?;
        let mut changed = ChangedLines::default();
        for (path, change) in parse_diff(&diff) {
            changed.files.insert(root.join(path), change);
        }
        // Paths relative to the top level, NUL-separated (no quoting).
        let untracked = git(&[
            "-C",
            &top,
            "ls-files",
            "--others",
            "--exclude-standard",
            "-z",
        ])?;
        for path in untracked.split('\0').filter(|p| !p.is_empty()) {
            changed.files.insert(root.join(path), FileChange::Whole);
        }
        Ok(changed)
    }

    /// Keeps the findings whose primary span touches a changed line. A
    /// problem with the file itself (IDEM000) is kept when the file changed
    /// at all: it may hide every finding of the file.
    pub fn retain(&self, result: &mut LintResult) {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut absolute: BTreeMap<String, PathBuf> = BTreeMap::new();
        result.diagnostics.retain(|d| {
            let path = absolute
                .entry(d.path.clone())
                .or_insert_with(|| canonical(&cwd.join(&d.path)));
            match self.files.get(path.as_path()) {
                None => false,
                Some(FileChange::Whole) => true,
                Some(FileChange::Lines(lines)) => {
                    let span = d.span.start.line..=d.span.end.line.max(d.span.start.line);
                    d.code == "IDEM000"
                        || lines
                            .iter()
                            .any(|l| l.start() <= span.end() && span.start() <= l.end())
                }
            }
        });
        let used: std::collections::BTreeSet<&String> =
            result.diagnostics.iter().map(|d| &d.path).collect();
        result.sources.retain(|path, _| used.contains(path));
    }
}

/// Runs git in the current directory; its standard output, or why not.
fn git(args: &[&str]) -> Result<String, DiffBaseError> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(DiffBaseError::NoGit)?;
    if !out.status.success() {
        return Err(DiffBaseError::Git {
            command: args.join(" "),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The real path when it exists (symbolic links and `..` resolved, as git
/// reports the top level), else the path with `.` and `..` folded.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| crate::discover::normalize(path))
}

/// The added and modified lines of each file in a `-U0` unified diff (paths
/// relative to the repository, without the `b/` prefix). Deleted files and
/// pure deletions have no lines: nothing on them can be reported.
fn parse_diff(diff: &str) -> BTreeMap<String, FileChange> {
    let mut files: BTreeMap<String, FileChange> = BTreeMap::new();
    let mut current: Option<String> = None;
    // Lines of the current hunk still to come (old, new): inside a hunk a
    // line starting with `+++ ` is content, not a header.
    let mut pending = (0usize, 0usize);
    for line in diff.lines() {
        if pending != (0, 0) {
            match line.as_bytes().first() {
                Some(b'-') => pending.0 = pending.0.saturating_sub(1),
                Some(b'+') => pending.1 = pending.1.saturating_sub(1),
                Some(b'\\') => {}
                // Malformed: stop trusting the counts.
                _ => pending = (0, 0),
            }
            if pending != (0, 0) || matches!(line.as_bytes().first(), Some(b'-' | b'+' | b'\\')) {
                continue;
            }
        }
        if line.starts_with("diff --git ") {
            current = None;
        } else if let Some(target) = line.strip_prefix("+++ ") {
            current = unquote(target)
                .strip_prefix("b/")
                .map(str::to_string)
                .filter(|_| target != "/dev/null");
        } else if let Some(header) = line.strip_prefix("@@ ") {
            let Some((old, new)) = hunk_counts(header) else {
                continue;
            };
            pending = (old.1, new.1);
            let Some(path) = &current else { continue };
            if new.1 > 0 {
                let entry = files
                    .entry(path.clone())
                    .or_insert_with(|| FileChange::Lines(Vec::new()));
                if let FileChange::Lines(lines) = entry {
                    lines.push(new.0..=new.0 + new.1 - 1);
                }
            }
        }
    }
    files
}

/// `(start, count)` of the old and new side of a hunk header's
/// `-a[,b] +c[,d] @@` (a missing count is 1).
fn hunk_counts(header: &str) -> Option<((usize, usize), (usize, usize))> {
    let mut parts = header.split_whitespace();
    let side = |text: Option<&str>, sign: char| -> Option<(usize, usize)> {
        let text = text?.strip_prefix(sign)?;
        let (start, count) = text.split_once(',').unwrap_or((text, "1"));
        Some((start.parse().ok()?, count.parse().ok()?))
    };
    let old = side(parts.next(), '-')?;
    let new = side(parts.next(), '+')?;
    Some((old, new))
}

/// A path as git prints it: C-quoted (`"..."` with `\\`, `\"`, `\t`, `\n`
/// and octal bytes) when it holds unusual characters.
fn unquote(text: &str) -> String {
    let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
        return text.to_string();
    };
    let mut bytes = Vec::with_capacity(inner.len());
    let mut chars = inner.bytes().peekable();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match chars.next() {
            Some(b'n') => bytes.push(b'\n'),
            Some(b't') => bytes.push(b'\t'),
            Some(digit @ b'0'..=b'7') => {
                let mut value = u32::from(digit - b'0');
                for _ in 0..2 {
                    match chars.peek() {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            chars.next();
                        }
                        _ => break,
                    }
                }
                bytes.push(value as u8);
            }
            Some(other) => bytes.push(other),
            None => bytes.push(b'\\'),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_give_added_lines_and_content_is_not_a_header() {
        let diff = "diff --git a/src/a.rs b/src/a.rs\n\
                    index 1..2 100644\n\
                    --- a/src/a.rs\n\
                    +++ b/src/a.rs\n\
                    @@ -3 +3 @@ fn f() {\n\
                    -old\n\
                    +new\n\
                    @@ -10,2 +9,0 @@\n\
                    -gone\n\
                    -gone\n\
                    @@ -20,0 +20,2 @@\n\
                    +++ b/not/a/header\n\
                    +x\n\
                    diff --git a/\"sp ace\\303\\251.rs\" b/\"sp ace\\303\\251.rs\"\n\
                    new file mode 100644\n\
                    --- /dev/null\n\
                    +++ \"b/sp ace\\303\\251.rs\"\n\
                    @@ -0,0 +1,2 @@\n\
                    +a\n\
                    +b\n\
                    diff --git a/gone.rs b/gone.rs\n\
                    deleted file mode 100644\n\
                    --- a/gone.rs\n\
                    +++ /dev/null\n\
                    @@ -1 +0,0 @@\n\
                    -x\n";
        let files = parse_diff(diff);
        assert_eq!(
            files.get("src/a.rs"),
            Some(&FileChange::Lines(vec![3..=3, 20..=21]))
        );
        assert_eq!(
            files.get("sp aceé.rs"),
            Some(&FileChange::Lines(vec![1..=2]))
        );
        assert_eq!(files.len(), 2, "{files:?}");
    }
}
