//! `idem-lint merge`: joins the JSON or SARIF reports of `--partition`
//! shards (`crate::partition`) into the report one unpartitioned run writes.
//!
//! Every file's findings come from exactly one shard, already in the run's
//! order, so merging is a stable sort by file: findings of one file keep
//! their shard's order, and files interleave as the single run sorts them.
//! Findings are carried as the shards wrote them (JSON as raw text, SARIF
//! as `serde-sarif` values), so fields this module does not know survive.
//! Summary counts are recomputed from the merged findings, except
//! `files_analyzed` and baseline counts, which are summed.

use std::path::PathBuf;

use percent_encoding::percent_decode_str;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_sarif::sarif;

mod json_to_sarif;

/// A report format `merge` reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergeFormat {
    /// idem-lint's versioned JSON.
    Json,
    /// SARIF 2.1.0.
    Sarif,
}

impl MergeFormat {
    fn name(self) -> &'static str {
        match self {
            MergeFormat::Json => "JSON",
            MergeFormat::Sarif => "SARIF",
        }
    }
}

/// One shard's report: where it came from (for messages) and its text.
#[derive(Debug, Clone)]
pub struct Shard {
    /// The file name, as given.
    pub name: String,
    /// The report.
    pub text: String,
}

impl Shard {
    /// Reads a shard report from `path`.
    pub fn read(path: &PathBuf) -> Result<Shard, MergeError> {
        let name = crate::discover::display_path(path);
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(Shard { name, text }),
            Err(err) => Err(MergeError::Read {
                name,
                message: err.to_string(),
            }),
        }
    }
}

/// The merged report.
#[derive(Debug, Clone)]
pub struct Merged {
    /// The document, ending in a newline.
    pub text: String,
    /// Whether any finding is an error (exit code 1).
    pub has_errors: bool,
}

/// Why shards cannot be merged (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum MergeError {
    /// No shard was given.
    #[error("no reports to merge")]
    Empty,
    /// A shard could not be read.
    #[error("cannot read {name}: {message}")]
    Read {
        /// The file.
        name: String,
        /// The reason.
        message: String,
    },
    /// A shard is not an idem-lint JSON or SARIF report.
    #[error("{name} is not an idem-lint {format} report: {message}")]
    Invalid {
        /// The file.
        name: String,
        /// The format it was read as.
        format: &'static str,
        /// The parser's complaint.
        message: String,
    },
    /// Shards of different formats, or not of `--format`.
    #[error(
        "{name} is a {found} report, but {expected} was expected: merge reports of one format"
    )]
    MixedFormats {
        /// The file.
        name: String,
        /// Its format.
        found: &'static str,
        /// The format of the first shard, or `--format`.
        expected: &'static str,
    },
    /// Shards written by different versions of idem-lint or of the format.
    #[error("{name} was written by {found}, but {first} by {expected}: run every shard with the same idem-lint")]
    MixedVersions {
        /// The file.
        name: String,
        /// Its version.
        found: String,
        /// The first shard.
        first: String,
        /// The first shard's version.
        expected: String,
    },
    /// Two shards report the same file: one was given twice, or they come
    /// from different partitions.
    #[error("{first} and {name} both report {path}: give each shard of one partitioned run once")]
    Overlap {
        /// The later file.
        name: String,
        /// The earlier file.
        first: String,
        /// The source file both report.
        path: String,
    },
}

/// Merges `shards`, all of one format, into one report in `format` (by
/// default the shards' own). JSON shards can be written as SARIF, so CI
/// keeps one JSON artifact per shard and uploads SARIF once.
pub fn merge(shards: &[Shard], format: Option<MergeFormat>) -> Result<Merged, MergeError> {
    let first = shards.first().ok_or(MergeError::Empty)?;
    let expected = detect(first)?;
    match (expected, format) {
        (MergeFormat::Json, Some(MergeFormat::Sarif)) => {
            let merged = merge_formats(shards, expected)?;
            let text =
                json_to_sarif::convert(&merged.text).map_err(|message| MergeError::Invalid {
                    name: first.name.clone(),
                    format: "JSON",
                    message,
                })?;
            Ok(Merged { text, ..merged })
        }
        (MergeFormat::Sarif, Some(MergeFormat::Json)) => Err(MergeError::MixedFormats {
            name: first.name.clone(),
            found: "SARIF",
            expected: "JSON (SARIF shards can only be merged into SARIF)",
        }),
        _ => merge_formats(shards, expected),
    }
}

/// Merges `shards`, all of format `expected`, into a report of that format.
fn merge_formats(shards: &[Shard], expected: MergeFormat) -> Result<Merged, MergeError> {
    for shard in shards {
        let found = detect(shard)?;
        if found != expected {
            return Err(MergeError::MixedFormats {
                name: shard.name.clone(),
                found: found.name(),
                expected: expected.name(),
            });
        }
    }
    match expected {
        MergeFormat::Json => merge_json(shards),
        MergeFormat::Sarif => merge_sarif(shards),
    }
}

/// Which format a shard is in, by its top-level keys.
fn detect(shard: &Shard) -> Result<MergeFormat, MergeError> {
    #[derive(Deserialize)]
    struct Probe {
        runs: Option<serde::de::IgnoredAny>,
        diagnostics: Option<serde::de::IgnoredAny>,
    }
    let invalid = |message: String| MergeError::Invalid {
        name: shard.name.clone(),
        format: "JSON or SARIF",
        message,
    };
    let probe: Probe = serde_json::from_str(&shard.text).map_err(|e| invalid(e.to_string()))?;
    match (probe.runs, probe.diagnostics) {
        (Some(_), None) => Ok(MergeFormat::Sarif),
        (None, Some(_)) => Ok(MergeFormat::Json),
        _ => Err(invalid(
            "neither `diagnostics` (JSON) nor `runs` (SARIF) found".to_string(),
        )),
    }
}

/// The JSON report as `report::json` writes it (same field order), with
/// each finding kept as its raw text.
#[derive(Deserialize, Serialize)]
struct JsonReport {
    version: u32,
    tool: JsonTool,
    diagnostics: Vec<Box<RawValue>>,
    summary: JsonSummary,
}

#[derive(Deserialize, Serialize, PartialEq)]
struct JsonTool {
    name: String,
    version: String,
}

#[derive(Deserialize, Serialize)]
struct JsonSummary {
    files_analyzed: usize,
    files_with_errors: usize,
    diagnostics: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    baseline: Option<JsonBaseline>,
}

#[derive(Deserialize, Serialize, Default)]
struct JsonBaseline {
    suppressed: usize,
    stale: usize,
}

/// What merging needs of a JSON finding.
#[derive(Deserialize)]
struct JsonKey {
    path: String,
    severity: String,
}

fn merge_json(shards: &[Shard]) -> Result<Merged, MergeError> {
    let invalid = |shard: &Shard, message: String| MergeError::Invalid {
        name: shard.name.clone(),
        format: "JSON",
        message,
    };
    let mut reports = Vec::new();
    for shard in shards {
        let report: JsonReport =
            serde_json::from_str(&shard.text).map_err(|e| invalid(shard, e.to_string()))?;
        reports.push(report);
    }
    let mut findings = Vec::new();
    for (index, (shard, report)) in shards.iter().zip(&mut reports).enumerate() {
        for raw in std::mem::take(&mut report.diagnostics) {
            let key: JsonKey =
                serde_json::from_str(raw.get()).map_err(|e| invalid(shard, e.to_string()))?;
            findings.push((key, index, raw));
        }
    }
    let (first, rest) = reports.split_first_mut().ok_or(MergeError::Empty)?;
    for (shard, report) in shards[1..].iter().zip(rest.iter()) {
        let (found, expected) = (json_version(report), json_version(first));
        if found != expected {
            return Err(MergeError::MixedVersions {
                name: shard.name.clone(),
                found,
                first: shards[0].name.clone(),
                expected,
            });
        }
    }
    findings.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    check_disjoint(
        shards,
        findings
            .iter()
            .map(|(key, index, _)| (key.path.as_str(), *index)),
    )?;
    let mut error_files: Vec<&str> = (findings.iter())
        .filter(|(key, _, _)| key.severity == "error")
        .map(|(key, _, _)| key.path.as_str())
        .collect();
    error_files.dedup();
    let summary = JsonSummary {
        files_analyzed: reports.iter().map(|r| r.summary.files_analyzed).sum(),
        files_with_errors: error_files.len(),
        diagnostics: findings.len(),
        baseline: sum_baselines(&reports),
    };
    let has_errors = !error_files.is_empty();
    let merged = JsonReport {
        version: reports[0].version,
        tool: JsonTool {
            name: reports[0].tool.name.clone(),
            version: reports[0].tool.version.clone(),
        },
        diagnostics: findings.into_iter().map(|(_, _, raw)| raw).collect(),
        summary,
    };
    Ok(Merged {
        text: pretty(&merged),
        has_errors,
    })
}

/// The format and tool version a JSON report declares.
fn json_version(report: &JsonReport) -> String {
    format!(
        "{} {} (JSON version {})",
        report.tool.name, report.tool.version, report.version
    )
}

/// The shards' baseline counts added up, when any shard used a baseline.
fn sum_baselines(reports: &[JsonReport]) -> Option<JsonBaseline> {
    let baselines: Vec<&JsonBaseline> = reports
        .iter()
        .filter_map(|r| r.summary.baseline.as_ref())
        .collect();
    (!baselines.is_empty()).then(|| JsonBaseline {
        suppressed: baselines.iter().map(|b| b.suppressed).sum(),
        stale: baselines.iter().map(|b| b.stale).sum(),
    })
}

/// Fails when one source file is reported by two shards (by their index in
/// `shards`). `findings` come sorted by path, so a file's are adjacent.
fn check_disjoint<'a>(
    shards: &[Shard],
    findings: impl Iterator<Item = (&'a str, usize)>,
) -> Result<(), MergeError> {
    let mut previous: Option<(&str, usize)> = None;
    for (path, index) in findings {
        if let Some((last_path, last_index)) = previous {
            if last_path == path && last_index != index {
                return Err(MergeError::Overlap {
                    name: shards[index].name.clone(),
                    first: shards[last_index].name.clone(),
                    path: path.to_string(),
                });
            }
        }
        previous = Some((path, index));
    }
    Ok(())
}

/// Serialises as the renderers do: pretty, with a final newline.
fn pretty<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise: {e}\"}}"));
    text.push('\n');
    text
}

fn merge_sarif(shards: &[Shard]) -> Result<Merged, MergeError> {
    let mut logs = Vec::new();
    for shard in shards {
        let log: sarif::Sarif =
            serde_json::from_str(&shard.text).map_err(|e| MergeError::Invalid {
                name: shard.name.clone(),
                format: "SARIF",
                message: e.to_string(),
            })?;
        logs.push(log);
    }
    let mut runs = Vec::new();
    for (shard, log) in shards.iter().zip(&mut logs) {
        let run = log.runs.first_mut().ok_or_else(|| MergeError::Invalid {
            name: shard.name.clone(),
            format: "SARIF",
            message: "no run".to_string(),
        })?;
        runs.push(run);
    }
    let first_version = sarif_version(runs[0]);
    for (shard, run) in shards.iter().zip(&runs).skip(1) {
        let found = sarif_version(run);
        if found != first_version {
            return Err(MergeError::MixedVersions {
                name: shard.name.clone(),
                found,
                first: shards[0].name.clone(),
                expected: first_version,
            });
        }
    }
    let mut results = Vec::new();
    let mut notifications: Vec<sarif::Notification> = Vec::new();
    let mut successful = true;
    for (index, run) in runs.iter_mut().enumerate() {
        for result in run.results.take().unwrap_or_default() {
            results.push((sarif_path(&result), index, result));
        }
        for invocation in run.invocations.iter().flatten() {
            successful &= invocation.execution_successful;
            for note in invocation.tool_execution_notifications.iter().flatten() {
                // Every shard reports the run's fatal problems.
                if !notifications.contains(note) {
                    notifications.push(note.clone());
                }
            }
        }
    }
    results.sort_by(|a, b| a.0.cmp(&b.0));
    check_disjoint(
        shards,
        results
            .iter()
            .map(|(path, index, _)| (path.as_str(), *index)),
    )?;
    let has_errors = results
        .iter()
        .any(|(_, _, r)| matches!(r.level, Some(sarif::ResultLevel::Error)));
    let mut merged = logs.swap_remove(0);
    if let Some(run) = merged.runs.first_mut() {
        run.results = Some(results.into_iter().map(|(_, _, r)| r).collect());
        if let Some(invocation) = run.invocations.as_mut().and_then(|i| i.first_mut()) {
            invocation.execution_successful = successful;
            invocation.tool_execution_notifications =
                (!notifications.is_empty()).then_some(notifications);
        }
    }
    Ok(Merged {
        text: pretty(&merged),
        has_errors,
    })
}

/// The tool version and rule list of a SARIF run: `ruleIndex` refers to
/// the list, so shards must share it.
fn sarif_version(run: &sarif::Run) -> String {
    let driver = &run.tool.driver;
    let rules: Vec<&str> = (driver.rules.iter().flatten())
        .map(|r| r.id.as_str())
        .collect();
    format!(
        "{} {} (rules {})",
        driver.name,
        driver.version.as_deref().unwrap_or("?"),
        rules.join(",")
    )
}

/// The file a SARIF result is in, as the display path the single run
/// sorted by: the decoded URI, without the `file://` of absolute paths.
fn sarif_path(result: &sarif::Result) -> String {
    let uri = (result.locations.iter().flatten())
        .filter_map(|l| l.physical_location.as_ref())
        .filter_map(|p| p.artifact_location.as_ref())
        .find_map(|a| a.uri.as_deref())
        .unwrap_or("");
    let uri = uri.strip_prefix("file://").unwrap_or(uri);
    percent_decode_str(uri).decode_utf8_lossy().into_owned()
}
