//! Findings: a rule code, a severity, a message and where (a primary span
//! and labelled secondary spans in the same file). Rules build them
//! (`crate::rules::Finding`), renderers show them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A 1-based line and 1-based column counted in Unicode scalar values.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub column: usize,
}

/// A half-open region of a source file.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub struct Span {
    /// First character.
    pub start: Position,
    /// Position just after the last character.
    pub end: Position,
}

impl Span {
    /// A span covering the first character of line 1.
    pub fn file_start() -> Self {
        Span {
            start: Position { line: 1, column: 1 },
            end: Position { line: 1, column: 1 },
        }
    }

    /// Whether `line` lies within the span.
    pub fn contains_line(&self, line: usize) -> bool {
        self.start.line <= line && line <= self.end.line
    }
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Reported, does not fail the run.
    Warning,
    /// Fails the run (exit code 1).
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// A secondary location attached to a diagnostic (always in the same file).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Label {
    /// What this location contributes.
    pub message: String,
    /// Where it is.
    pub span: Span,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable rule code, e.g. `IDEM001`.
    pub code: &'static str,
    /// Stable rule name, e.g. `adhoc-key-concat`.
    pub name: &'static str,
    /// Level after configuration.
    pub severity: Severity,
    /// One-sentence description of this finding.
    pub message: String,
    /// Display path of the file.
    pub path: String,
    /// Primary span.
    pub span: Span,
    /// Secondary labels in the same file.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// The same advice as edits a tool can apply (JSON `fix`, SARIF `fixes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    /// Whether the whole path from source to sink is established by flow.
    pub confidence: Confidence,
    /// The path: the source, the steps, the sink (may cross files).
    pub trace: Vec<TraceStep>,
}

/// How a finding's source is known (rules.md, "Evidence and confidence").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// The source is known only by a name (a parameter or field named like a
    /// client key, with no visible origin): shown with `--confidence possible`.
    Possible,
    /// Every step from the source to the sink is a flow the analysis saw.
    #[default]
    Certain,
}

impl Confidence {
    /// The word used in JSON, configuration and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Possible => "possible",
            Confidence::Certain => "certain",
        }
    }
}

impl TraceStep {
    /// The one step of a finding that is its own source and sink (a file
    /// that cannot be read, a suppression comment, a SQL clause).
    pub fn here(path: &str, span: Span) -> Vec<TraceStep> {
        vec![TraceStep {
            path: path.to_string(),
            span,
            message: "here".to_string(),
        }]
    }
}

/// One step of a finding's path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TraceStep {
    /// Display path of the step's file.
    pub path: String,
    /// Where.
    pub span: Span,
    /// What happens to the value there, in a few words.
    pub message: String,
}

/// How far a suggested [`Fix`] can be trusted (clippy's applicability names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// Every component is a value found in scope: `--fix` applies it.
    MachineApplicable,
    /// Every component is known, but the enclosing function may not return
    /// a `Result` the `?` can convert into: shown, never applied.
    MaybeIncorrect,
    /// Some component is a placeholder (`&principal`) to fill in by hand.
    HasPlaceholders,
}

/// One replacement: the text in `span` becomes `replacement` (an empty
/// span inserts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// The region replaced, in the diagnostic's file.
    pub span: Span,
    /// Its new text.
    pub replacement: String,
}

/// A suggested fix: edits that together turn the finding into valid Rust.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fix {
    /// Whether a tool may apply it unattended.
    pub applicability: Applicability,
    /// What it does, in one sentence.
    pub description: String,
    /// The edits, in source order; they apply together or not at all.
    pub edits: Vec<Edit>,
}

impl Diagnostic {
    /// The total order used for output: path, line, column, code, then message.
    pub fn sort_key(&self) -> (&str, Position, &str, &str) {
        (&self.path, self.span.start, self.code, &self.message)
    }
}
