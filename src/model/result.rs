//! The outcome of a run: what the renderers and the exit code are made from.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::{BaselineOutcome, Diagnostic, Severity, WalkProblem};

/// The outcome of a run.
#[derive(Debug, Default)]
pub struct LintResult {
    /// Findings, sorted by path, line, column, code.
    pub diagnostics: Vec<Diagnostic>,
    /// Number of files read.
    pub files_analyzed: usize,
    /// Source text of files that have findings, for rendering snippets.
    pub sources: BTreeMap<String, Arc<String>>,
    /// Explicit paths that do not exist or cannot be read (exit 2).
    pub fatal: Vec<WalkProblem>,
    /// The first reported file of each unit that went over its analysis
    /// limits: its findings are missing, and the run fails (exit 2).
    pub over_budget: Vec<String>,
    /// Display paths of every file linted (after exclusions).
    pub linted: BTreeSet<String>,
    /// What a baseline did to the findings, when one was applied.
    pub baseline: Option<BaselineOutcome>,
    /// Problems with the setup that do not stop the run (a misspelt
    /// configuration table), for the command line to print on stderr.
    pub warnings: Vec<String>,
}

impl LintResult {
    /// Number of files with at least one error-level finding.
    pub fn files_with_errors(&self) -> usize {
        let mut paths: Vec<&str> = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.path.as_str())
            .collect();
        paths.dedup();
        paths.len()
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}
