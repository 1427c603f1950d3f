//! A merged JSON report written as SARIF: the findings are read back into
//! [`Diagnostic`]s and rendered by `report::sarif`, as the single run does.
//! The fingerprints hash the lines a finding covers, so the source files
//! are read from disk (paths relative to the current directory, as in the
//! shards); a file that cannot be read falls back to the message, as the
//! renderer does without sources.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;

use crate::model::diagnostic::{Confidence, TraceStep};
use crate::model::{Diagnostic, Fix, Label, LintResult, Position, Severity, Span};
use crate::report::sarif;
use crate::rules;
use crate::source::decode;

#[derive(Deserialize)]
struct Report {
    diagnostics: Vec<JsonDiagnostic>,
    summary: Summary,
}

#[derive(Deserialize)]
struct Summary {
    files_analyzed: usize,
}

#[derive(Deserialize)]
struct JsonDiagnostic {
    code: String,
    severity: String,
    message: String,
    path: String,
    span: JsonSpan,
    labels: Vec<JsonLabel>,
    help: Option<String>,
    /// Absent when the finding has no suggested fix.
    #[serde(default)]
    fix: Option<Fix>,
    /// Absent in reports written before evidence existed: `certain`.
    #[serde(default)]
    confidence: Confidence,
    #[serde(default)]
    trace: Vec<TraceStep>,
}

#[derive(Deserialize)]
struct JsonLabel {
    message: String,
    span: JsonSpan,
}

#[derive(Deserialize, Clone, Copy)]
struct JsonSpan {
    start: JsonPosition,
    end: JsonPosition,
}

#[derive(Deserialize, Clone, Copy)]
struct JsonPosition {
    line: usize,
    column: usize,
}

impl From<JsonSpan> for Span {
    fn from(span: JsonSpan) -> Span {
        let position = |p: JsonPosition| Position {
            line: p.line,
            column: p.column,
        };
        Span {
            start: position(span.start),
            end: position(span.end),
        }
    }
}

/// The SARIF log of the JSON report `json`, or why it cannot be read.
pub fn convert(json: &str) -> Result<String, String> {
    let report: Report = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let mut result = LintResult {
        files_analyzed: report.summary.files_analyzed,
        ..LintResult::default()
    };
    for finding in report.diagnostics {
        result.diagnostics.push(diagnostic(finding)?);
    }
    result.sources = sources(&result.diagnostics);
    Ok(sarif::render(&result))
}

fn diagnostic(finding: JsonDiagnostic) -> Result<Diagnostic, String> {
    let rule = rules::find(&finding.code)
        .filter(|rule| rule.code == finding.code)
        .ok_or_else(|| format!("unknown rule code `{}`", finding.code))?;
    Ok(Diagnostic {
        code: rule.code,
        name: rule.name,
        severity: match finding.severity.as_str() {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            other => return Err(format!("unknown severity `{other}`")),
        },
        message: finding.message,
        path: finding.path,
        span: finding.span.into(),
        labels: (finding.labels.into_iter())
            .map(|label| Label {
                message: label.message,
                span: label.span.into(),
            })
            .collect(),
        help: finding.help,
        fix: finding.fix,
        confidence: finding.confidence,
        trace: finding.trace,
    })
}

/// The text of every file with a finding, as the single run keeps it.
fn sources(diagnostics: &[Diagnostic]) -> BTreeMap<String, Arc<String>> {
    let mut sources = BTreeMap::new();
    for d in diagnostics {
        if !sources.contains_key(&d.path) {
            // Decoded as the lint run decodes it (a BOM is dropped).
            let text = std::fs::read(&d.path).ok().and_then(|b| decode(b).ok());
            if let Some(text) = text {
                sources.insert(d.path.clone(), Arc::new(text));
            }
        }
    }
    sources
}
