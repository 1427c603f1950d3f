//! `--format rustc-json` (`cargo idem-lint --message-format=json`): rustc's
//! JSON diagnostics wrapped in cargo's `compiler-message` lines, one per
//! line, then a `build-finished` line. This is what rust-analyzer reads
//! from `check.overrideCommand`, so editors show findings inline with no
//! extra server; `tests/rustc_json.rs` parses it with the `cargo_metadata`
//! crate rust-analyzer uses.
//!
//! rustc's spans carry byte offsets as well as lines and columns; ours are
//! computed from the line/column positions with the file's text.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::human::LineIndex;
use crate::model::{Applicability, Diagnostic, LintResult, Position, Severity, Span};
use crate::rules;

/// cargo's `--message-format` flavours of JSON.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// `json-diagnostic-short`: `rendered` is the one-line form.
    pub short: bool,
    /// `json-diagnostic-rendered-ansi`: `rendered` has ANSI colours.
    pub ansi: bool,
    /// `json-render-diagnostics`: diagnostics are rendered on stderr (see
    /// [`rendered_all`]) and left out of the JSON, as cargo does.
    pub render_diagnostics: bool,
}

/// The `rendered` text of every finding, for `json-render-diagnostics`
/// (cargo prints them on stderr).
pub fn rendered_all(result: &LintResult, style: Style) -> String {
    result
        .diagnostics
        .iter()
        .map(|d| rendered(d, style))
        .collect()
}

/// Renders every finding as a cargo `compiler-message` line and a final
/// `build-finished` line (success when no finding is an error).
pub fn render(result: &LintResult, style: Style) -> String {
    let mut packages = Packages::default();
    let mut out = String::new();
    if style.render_diagnostics {
        let finished = json!({"reason": "build-finished", "success": !result.has_errors()});
        return format!("{finished}\n");
    }
    let mut index: Option<(&str, LineIndex)> = None;
    for d in &result.diagnostics {
        let text = result.sources.get(&d.path).map(|t| t.as_str());
        // Findings come sorted by path: one file's index serves a run of them.
        if let Some(text) = text {
            if index.as_ref().is_none_or(|(path, _)| *path != d.path) {
                index = Some((d.path.as_str(), LineIndex::new(text)));
            }
        }
        let source = text.zip(index.as_ref().map(|(_, lines)| lines));
        let package = packages.of(&d.path);
        let file_name = package.file_name(&d.path);
        let line = json!({
            "reason": "compiler-message",
            "package_id": package.id,
            "manifest_path": package.manifest_path,
            "target": package.target(),
            "message": message(d, &file_name, source, style),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let finished = json!({"reason": "build-finished", "success": !result.has_errors()});
    out.push_str(&finished.to_string());
    out.push('\n');
    out
}

/// One finding as a rustc diagnostic; `file_name` is its file relative to
/// the workspace root, as cargo names files.
fn message(
    d: &Diagnostic,
    file_name: &str,
    source: Option<(&str, &LineIndex)>,
    style: Style,
) -> Value {
    let mut spans = vec![span(file_name, d.span, true, None, source)];
    spans.extend(
        d.labels
            .iter()
            .map(|l| span(file_name, l.span, false, Some(&l.message), source)),
    );
    let mut children: Vec<Value> = d
        .help
        .iter()
        .map(|help| {
            json!({"message": help, "code": null, "level": "help", "spans": [],
                   "children": [], "rendered": null})
        })
        .collect();
    children.extend(suggestion(d, file_name, source));
    json!({
        "$message_type": "diagnostic",
        "message": d.message,
        "code": {"code": d.code, "explanation": rules::find(d.code).map(|r| r.docs)},
        "level": level(d.severity),
        "spans": spans,
        "children": children,
        "rendered": rendered(d, style),
    })
}

/// A machine-applicable fix as rustc writes a suggestion: a `help` child
/// whose spans carry `suggested_replacement`, which editors (rust-analyzer)
/// offer as a quick fix. Other fixes stay in the help text only.
fn suggestion(
    d: &Diagnostic,
    file_name: &str,
    source: Option<(&str, &LineIndex)>,
) -> Option<Value> {
    let fix = d
        .fix
        .as_ref()
        .filter(|f| f.applicability == Applicability::MachineApplicable)?;
    let spans: Vec<Value> = fix
        .edits
        .iter()
        .map(|edit| {
            let mut span = span(file_name, edit.span, true, None, source);
            span["suggested_replacement"] = json!(edit.replacement);
            span["suggestion_applicability"] = json!("MachineApplicable");
            span
        })
        .collect();
    Some(
        json!({"message": fix.description, "code": null, "level": "help",
                "spans": spans, "children": [], "rendered": null}),
    )
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A rustc span: byte offsets from the text when it was read (0 otherwise,
/// as for a file that could not be read), and the lines it covers.
fn span(
    path: &str,
    span: Span,
    is_primary: bool,
    label: Option<&str>,
    source: Option<(&str, &LineIndex)>,
) -> Value {
    let (byte_start, byte_end) = source.map_or((0, 0), |(text, lines)| {
        (lines.offset(text, span.start), lines.offset(text, span.end))
    });
    json!({
        "file_name": path,
        "byte_start": byte_start,
        "byte_end": byte_end.max(byte_start),
        "line_start": span.start.line,
        "line_end": span.end.line,
        "column_start": span.start.column,
        "column_end": span.end.column,
        "is_primary": is_primary,
        "text": source.map_or_else(Vec::new, |(text, lines)| span_lines(text, lines, span)),
        "label": label,
        "suggested_replacement": null,
        "suggestion_applicability": null,
        "expansion": null,
    })
}

/// The source lines a span covers, each with its highlighted columns.
fn span_lines(text: &str, lines: &LineIndex, span: Span) -> Vec<Value> {
    (span.start.line..=span.end.line.max(span.start.line))
        .map(|line| {
            let start = lines.line_start(text, line);
            let end = lines.line_start(text, line + 1);
            let body = text[start..end].trim_end_matches(['\n', '\r']);
            let highlight_start = if line == span.start.line {
                span.start.column
            } else {
                1
            };
            let highlight_end = if line == span.end.line {
                span.end.column
            } else {
                body.chars().count() + 1
            };
            json!({"text": body, "highlight_start": highlight_start, "highlight_end": highlight_end})
        })
        .collect()
}

/// rustc's rendering: what editors show as the full message; one line in
/// the short style, coloured as rustc colours it in the ANSI style.
fn rendered(d: &Diagnostic, style: Style) -> String {
    let Position { line, column } = d.span.start;
    let paint = |text: String, code: &str| {
        if style.ansi {
            format!("\u{1b}[{code}m{text}\u{1b}[0m")
        } else {
            text
        }
    };
    let level_code = match d.severity {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
    };
    let header = paint(format!("{}[{}]", level(d.severity), d.code), level_code);
    if style.short {
        return format!(
            "{}:{line}:{column}: {header}{}\n",
            d.path,
            paint(format!(": {}", d.message), "1")
        );
    }
    let mut text = format!(
        "{header}{}\n{} {}:{line}:{column}\n",
        paint(format!(": {}", d.message), "1"),
        paint(" -->".to_string(), "1;34"),
        d.path
    );
    for label in &d.labels {
        text.push_str(&format!(
            "  = note: {}:{}:{}: {}\n",
            d.path, label.span.start.line, label.span.start.column, label.message
        ));
    }
    if let Some(help) = &d.help {
        text.push_str(&format!("  = help: {help}\n"));
    }
    text
}

/// The package a file belongs to, as cargo names it in its messages.
struct Package {
    id: String,
    manifest_path: String,
    name: String,
    src_path: String,
    /// `lib`, or `bin` for a package with `src/main.rs` and no `src/lib.rs`.
    kind: &'static str,
    /// The workspace root cargo names files from (`None`: a loose file,
    /// named as given).
    root: Option<PathBuf>,
}

impl Package {
    /// The package's main target: rust-analyzer only needs the message,
    /// but cargo's schema requires a target.
    fn target(&self) -> Value {
        json!({
            "kind": [self.kind], "crate_types": [self.kind], "name": self.name.replace('-', "_"),
            "src_path": self.src_path, "edition": "2021",
            "doc": self.kind == "lib", "doctest": false, "test": false,
        })
    }

    /// `path` relative to the workspace root, as cargo and rustc name files
    /// (rust-analyzer resolves them from there), whatever the current
    /// directory; as given outside any workspace.
    fn file_name(&self, path: &str) -> String {
        let Some(root) = &self.root else {
            return path.to_string();
        };
        let file = absolute(Path::new(path));
        file.strip_prefix(root).map_or_else(
            |_| path.to_string(),
            |rel| rel.to_string_lossy().replace('\\', "/"),
        )
    }
}

/// Packages found so far, by the directory of the file that asked.
#[derive(Default)]
struct Packages {
    by_dir: BTreeMap<PathBuf, Package>,
}

impl Packages {
    fn of(&mut self, path: &str) -> &Package {
        let file = absolute(Path::new(path));
        let dir = file.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        self.by_dir
            .entry(dir.clone())
            .or_insert_with(|| package_of(&dir, &file))
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The nearest `Cargo.toml` at or above `dir` with a `[package]`; a loose
/// file outside any package is its own package, named after the file.
fn package_of(dir: &Path, file: &Path) -> Package {
    for ancestor in dir.ancestors() {
        let manifest = ancestor.join("Cargo.toml");
        let Some((name, version)) = package_name(&manifest) else {
            continue;
        };
        let lib = ancestor.join("src/lib.rs");
        let main = ancestor.join("src/main.rs");
        let (src, kind) = if !lib.is_file() && main.is_file() {
            (main, "bin")
        } else {
            (lib, "lib")
        };
        return Package {
            id: format!("path+file://{}#{name}@{version}", ancestor.display()),
            manifest_path: manifest.display().to_string(),
            name,
            src_path: src.display().to_string(),
            kind,
            root: Some(workspace_root(ancestor)),
        };
    }
    let name = file.file_stem().map_or_else(
        || "unknown".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    Package {
        id: format!("path+file://{}#{name}@0.0.0", dir.display()),
        manifest_path: dir.join("Cargo.toml").display().to_string(),
        name,
        src_path: file.display().to_string(),
        kind: "lib",
        root: None,
    }
}

/// The root of the workspace `package_dir` belongs to: the nearest manifest
/// at or above it with a `[workspace]` table, else the package itself.
fn workspace_root(package_dir: &Path) -> PathBuf {
    package_dir
        .ancestors()
        .find(|dir| {
            std::fs::read_to_string(dir.join("Cargo.toml"))
                .ok()
                .and_then(|text| toml::from_str::<toml::Value>(&text).ok())
                .is_some_and(|v| v.get("workspace").is_some())
        })
        .unwrap_or(package_dir)
        .to_path_buf()
}

/// `package.name` and `package.version` of a manifest (a version inherited
/// from the workspace is shown as `0.0.0`: the id only has to be stable).
fn package_name(manifest: &Path) -> Option<(String, String)> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let value: toml::Value = toml::from_str(&text).ok()?;
    let package = value.get("package")?;
    let name = package.get("name")?.as_str()?.to_string();
    let version = package
        .get("version")
        .and_then(toml::Value::as_str)
        .unwrap_or("0.0.0");
    Some((name, version.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_line_spans_highlight_to_line_ends() {
        let text = "fn a() {\n    b();\n}\n";
        let lines = LineIndex::new(text);
        let span = Span {
            start: Position { line: 1, column: 4 },
            end: Position { line: 2, column: 6 },
        };
        let got = span_lines(text, &lines, span);
        assert_eq!(got[0]["highlight_start"], 4);
        assert_eq!(got[0]["highlight_end"], 9);
        assert_eq!(got[1]["highlight_start"], 1);
        assert_eq!(got[1]["highlight_end"], 6);
    }
}
