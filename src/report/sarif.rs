//! SARIF 2.1.0 for GitHub code scanning and other SARIF viewers, built with
//! the `serde-sarif` object model.
//!
//! Locations are relative to `%SRCROOT%`, the directory idem-lint runs from
//! (the repository root in CI), so the file is the same on every machine.
//! Columns count Unicode code points, as everywhere in idem-lint.

use std::collections::BTreeMap;
use std::path::Path;

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde_json::json;
use serde_sarif::sarif;
use sha2::{Digest, Sha256};

use super::human::LineIndex;
use super::markdown;
use super::paths::{rooted, RootedPath};
use crate::model::diagnostic::{Confidence, TraceStep};
use crate::model::{Diagnostic, Fix, LintResult, Severity, Span};
use crate::rules::{self, Rule};

/// The base every relative `artifactLocation.uri` is resolved against.
pub const SRCROOT: &str = "%SRCROOT%";

/// The `partialFingerprints` key; bump the version if the hashed text changes.
pub const FINGERPRINT_KEY: &str = "idemLintFinding/v1";

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Characters escaped in a URI path: everything a URI reserves or forbids
/// except the `/` separator and the unreserved set.
const URI_PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// Renders the SARIF log, followed by a newline. Relative paths are resolved
/// against the current directory.
pub fn render(result: &LintResult) -> String {
    let mut text = Vec::new();
    match write(result, &mut text) {
        Ok(()) => String::from_utf8(text).unwrap_or_default(),
        Err(e) => format!("{{\"error\": \"cannot serialise SARIF: {e}\"}}\n"),
    }
}

/// Writes the SARIF log, followed by a newline, straight into `out`: no
/// copy of the whole log is held (67 MB for 20k findings, 100 MB of peak
/// memory with its growth).
pub fn write(result: &LintResult, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let root = std::env::current_dir().ok();
    let log = build(result, root.as_deref());
    serde_json::to_writer_pretty(&mut *out, &log)?;
    out.write_all(b"\n")
}

/// The SARIF log of `result`, with absolute paths under `root` made relative.
pub fn build(result: &LintResult, root: Option<&Path>) -> sarif::Sarif {
    let rules: Vec<sarif::ReportingDescriptor> = rules::ALL.iter().map(|r| descriptor(r)).collect();
    let driver = sarif::ToolComponent::builder()
        .name("idem-lint")
        .full_name(format!("idem-lint {}", crate::VERSION))
        .version(crate::VERSION)
        .semantic_version(crate::VERSION)
        .information_uri(information_uri())
        .rules(rules)
        .build();
    let mut occurrences: BTreeMap<(String, &str, String), usize> = BTreeMap::new();
    // Findings come sorted by path: one file's line index serves a run of them.
    let mut index: Option<(&str, LineIndex)> = None;
    let results: Vec<sarif::Result> = result
        .diagnostics
        .iter()
        .map(|d| {
            let source = result.sources.get(&d.path).map(|s| s.as_str());
            if let Some(source) = source {
                if index.as_ref().is_none_or(|(path, _)| *path != d.path) {
                    index = Some((d.path.as_str(), LineIndex::new(source)));
                }
            }
            let lines = index.as_ref().map(|(_, lines)| lines);
            let text = fingerprint_text_indexed(d, source.zip(lines));
            let uri = uri_of(&d.path, root);
            // Identical findings in one file are told apart by their order.
            let n = occurrences
                .entry((uri.0.clone(), d.code, text.clone()))
                .or_insert(0);
            *n += 1;
            result_of(d, &uri, fingerprint(d.code, &uri.0, &text, *n), root)
        })
        .collect();
    let mut notifications = Vec::new();
    for problem in &result.fatal {
        notifications.push(
            sarif::Notification::builder()
                .level(json!("error"))
                .message(message(&format!(
                    "{}: {}",
                    problem.display, problem.message
                )))
                .build(),
        );
    }
    let invocation = if notifications.is_empty() {
        sarif::Invocation::builder()
            .execution_successful(true)
            .build()
    } else {
        sarif::Invocation::builder()
            .execution_successful(false)
            .tool_execution_notifications(notifications)
            .build()
    };
    let base = sarif::ArtifactLocation::builder()
        .description(message(
            "The directory idem-lint ran in: the repository root when run from there.",
        ))
        .build();
    let run = sarif::Run::builder()
        .tool(sarif::Tool::builder().driver(driver).build())
        .results(results)
        .invocations(vec![invocation])
        .column_kind(json!("unicodeCodePoints"))
        .original_uri_base_ids(BTreeMap::from([(SRCROOT.to_string(), base)]))
        .build();
    sarif::Sarif::builder()
        .schema(SCHEMA)
        .version(json!("2.1.0"))
        .runs(vec![run])
        .build()
}

fn information_uri() -> String {
    let repository = env!("CARGO_PKG_REPOSITORY");
    if repository.is_empty() {
        format!("https://crates.io/crates/{}", env!("CARGO_PKG_NAME"))
    } else {
        repository.to_string()
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn message(text: &str) -> sarif::Message {
    sarif::Message::builder().text(text).build()
}

fn descriptor(rule: &Rule) -> sarif::ReportingDescriptor {
    let what = rule.section("What it does").unwrap_or(rule.summary);
    sarif::ReportingDescriptor::builder()
        .id(rule.code)
        .name(rule.name)
        .short_description(
            sarif::MultiformatMessageString::builder()
                .text(sentence(rule.summary))
                .build(),
        )
        .full_description(
            sarif::MultiformatMessageString::builder()
                .text(markdown::render(what, false).trim_end().to_string())
                .markdown(what)
                .build(),
        )
        .help(
            sarif::MultiformatMessageString::builder()
                .text(markdown::render_rule(rule, false))
                .markdown(rule.docs)
                .build(),
        )
        .default_configuration(
            sarif::ReportingConfiguration::builder()
                .level(json!(level(rule.level)))
                .build(),
        )
        // Default runs report only paths established by flow.
        .properties(precision(Confidence::Certain))
        .build()
}

/// A SARIF location: the URI text and whether it is relative to `%SRCROOT%`.
type Uri = (String, bool);

fn uri_of(display: &str, root: Option<&Path>) -> Uri {
    match rooted(display, root) {
        RootedPath::Relative(rel) => (utf8_percent_encode(&rel, URI_PATH).to_string(), true),
        RootedPath::Absolute(path) => {
            let text = path.to_string_lossy().replace('\\', "/");
            let text = if text.starts_with('/') {
                text
            } else {
                format!("/{text}")
            };
            (
                format!("file://{}", utf8_percent_encode(&text, URI_PATH)),
                false,
            )
        }
    }
}

fn physical(uri: &Uri, span: Span) -> sarif::PhysicalLocation {
    let artifact = if uri.1 {
        sarif::ArtifactLocation::builder()
            .uri(uri.0.clone())
            .uri_base_id(SRCROOT)
            .build()
    } else {
        sarif::ArtifactLocation::builder()
            .uri(uri.0.clone())
            .build()
    };
    sarif::PhysicalLocation::builder()
        .artifact_location(artifact)
        .region(region(span))
        .build()
}

fn region(span: Span) -> sarif::Region {
    sarif::Region::builder()
        .start_line(span.start.line as i64)
        .start_column(span.start.column as i64)
        .end_line(span.end.line.max(span.start.line) as i64)
        .end_column(span.end.column as i64)
        .build()
}

/// A SARIF `fix`: one artifact change, its replacements the fix's edits.
fn fix_of(fix: &Fix, uri: &Uri) -> sarif::Fix {
    let artifact = physical(uri, Span::default()).artifact_location;
    let replacements: Vec<sarif::Replacement> = fix
        .edits
        .iter()
        .map(|edit| {
            sarif::Replacement::builder()
                .deleted_region(region(edit.span))
                .inserted_content(
                    sarif::ArtifactContent::builder()
                        .text(edit.replacement.clone())
                        .build(),
                )
                .build()
        })
        .collect();
    let change = sarif::ArtifactChange::builder()
        .artifact_location(artifact.unwrap_or_default())
        .replacements(replacements)
        .build();
    sarif::Fix::builder()
        .description(message(&sentence(&fix.description)))
        .artifact_changes(vec![change])
        .build()
}

fn result_of(d: &Diagnostic, uri: &Uri, fingerprint: String, root: Option<&Path>) -> sarif::Result {
    let mut text = sentence(&d.message);
    if let Some(help) = &d.help {
        text.push_str("\nhelp: ");
        text.push_str(&sentence(help));
    }
    let location = sarif::Location::builder()
        .physical_location(physical(uri, d.span))
        .build();
    let related: Vec<sarif::Location> = d
        .labels
        .iter()
        .enumerate()
        .map(|(i, label)| {
            sarif::Location::builder()
                .id(i as i64 + 1)
                .physical_location(physical(uri, label.span))
                .message(message(&sentence(&label.message)))
                .build()
        })
        .collect();
    let rule_index = rules::ALL.iter().position(|r| r.code == d.code);
    let builder = sarif::Result::builder()
        .rule_id(d.code)
        .level(match d.severity {
            Severity::Error => sarif::ResultLevel::Error,
            Severity::Warning => sarif::ResultLevel::Warning,
        })
        .message(message(&text))
        .locations(vec![location])
        .partial_fingerprints(BTreeMap::from([(FINGERPRINT_KEY.to_string(), fingerprint)]));
    let mut result = match (rule_index, related.is_empty()) {
        (Some(i), true) => builder.rule_index(i as i64).build(),
        (Some(i), false) => builder
            .rule_index(i as i64)
            .related_locations(related)
            .build(),
        (None, true) => builder.build(),
        (None, false) => builder.related_locations(related).build(),
    };
    // Set after building: the typed builder cannot take an optional field.
    result.fixes = d.fix.as_ref().map(|f| vec![fix_of(f, uri)]);
    if !d.trace.is_empty() {
        result.code_flows = Some(vec![code_flow(&d.trace, root)]);
    }
    result.properties = Some(precision(d.confidence));
    result
}

/// The finding's path as one thread flow: GitHub code scanning draws it as
/// "Show paths", step by step from the source to the sink.
fn code_flow(trace: &[TraceStep], root: Option<&Path>) -> sarif::CodeFlow {
    let locations = (trace.iter())
        .map(|step| sarif::ThreadFlowLocation {
            location: Some(
                sarif::Location::builder()
                    .physical_location(physical(&uri_of(&step.path, root), step.span))
                    .message(message(&sentence(&step.message)))
                    .build(),
            ),
            ..sarif::ThreadFlowLocation::default()
        })
        .collect::<Vec<_>>();
    sarif::CodeFlow::builder()
        .thread_flows(vec![sarif::ThreadFlow::builder()
            .locations(locations)
            .build()])
        .build()
}

/// `properties.precision` as GitHub reads it: `high` for a path established
/// by flow, `medium` for one whose source is a name.
fn precision(confidence: Confidence) -> sarif::PropertyBag {
    let value = match confidence {
        Confidence::Certain => "high",
        Confidence::Possible => "medium",
    };
    sarif::PropertyBag::builder()
        .additional_properties(BTreeMap::from([("precision".to_string(), json!(value))]))
        .build()
}

/// Ends `text` with a full stop, as SARIF viewers expect of messages.
fn sentence(text: &str) -> String {
    let text = text.trim_end();
    if text.ends_with(['.', '!', '?']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

/// The text a finding is recognised by across edits: the source lines its
/// primary span covers, with all whitespace removed (so re-indenting or
/// re-wrapping them does not matter), or the message when the source is
/// unknown. Whole lines tell apart the many findings whose span is just
/// `&key`. Line numbers are deliberately absent: inserting code above a
/// finding must not change its identity.
pub fn fingerprint_text(d: &Diagnostic, source: Option<&str>) -> String {
    let index = source.map(LineIndex::new);
    fingerprint_text_indexed(d, source.zip(index.as_ref()))
}

/// [`fingerprint_text`] with the source's line index built once per file, so
/// the cost per finding is its own lines, not the file's length.
fn fingerprint_text_indexed(d: &Diagnostic, source: Option<(&str, &LineIndex)>) -> String {
    let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let Some((text, index)) = source else {
        return strip(&d.message);
    };
    let first = d.span.start.line.max(1);
    let last = d.span.end.line.max(first);
    let line_start = |line: usize| index.line_start(text, line);
    let lines = strip(&text[line_start(first)..line_start(last + 1).max(line_start(first))]);
    if lines.is_empty() {
        strip(&d.message)
    } else {
        lines
    }
}

/// `<hash>:<occurrence>`: a SHA-256 of rule, path and text, and the 1-based
/// position of this finding among identical ones in the file.
pub fn fingerprint(code: &str, uri: &str, text: &str, occurrence: usize) -> String {
    let mut hasher = Sha256::new();
    for part in [code, uri, text] {
        hasher.update(part.as_bytes());
        hasher.update([0u8]);
    }
    let digest = hasher.finalize();
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("{hex}:{occurrence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Position;
    use std::sync::Arc;

    fn diag(path: &str, span: Span) -> Diagnostic {
        Diagnostic {
            code: "IDEM001",
            name: "adhoc-key-concat",
            severity: Severity::Error,
            message: "idempotency key built by ad-hoc concatenation".into(),
            path: path.into(),
            span,
            labels: Vec::new(),
            help: None,
            fix: None,
            confidence: Default::default(),
            trace: Vec::new(),
        }
    }

    fn span(l1: usize, c1: usize, l2: usize, c2: usize) -> Span {
        Span {
            start: Position {
                line: l1,
                column: c1,
            },
            end: Position {
                line: l2,
                column: c2,
            },
        }
    }

    fn fingerprints(source: &str, spans: &[Span]) -> Vec<String> {
        let mut result = LintResult {
            files_analyzed: 1,
            ..LintResult::default()
        };
        result
            .sources
            .insert("src/a.rs".into(), Arc::new(source.to_string()));
        result.diagnostics = spans.iter().map(|s| diag("src/a.rs", *s)).collect();
        build(&result, None).runs[0]
            .results
            .as_ref()
            .map(|rs| {
                rs.iter()
                    .map(|r| r.partial_fingerprints.as_ref().unwrap()[FINGERPRINT_KEY].clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn fingerprints_survive_edits_elsewhere_and_reformatting() {
        let before = "fn f() {\n    let k = format!(\"{}:{}\", t, key);\n}\n";
        let after = "// new comment\nuse x;\n\nfn f() {\n    let k = format!(\"{}:{}\",\n        t, key);\n}\n";
        let a = fingerprints(before, &[span(2, 13, 2, 37)]);
        let b = fingerprints(after, &[span(5, 13, 6, 16)]);
        assert_eq!(a, b);
        let changed = "fn f() {\n    let k = format!(\"{}:{}\", tenant, key);\n}\n";
        assert_ne!(a, fingerprints(changed, &[span(2, 13, 2, 42)]));
    }

    #[test]
    fn repeated_findings_get_distinct_fingerprints() {
        let source = "a(&key);\na(&key);\n";
        let fps = fingerprints(source, &[span(1, 3, 1, 7), span(2, 3, 2, 7)]);
        assert_eq!(fps.len(), 2);
        assert_ne!(fps[0], fps[1]);
        assert!(fps[0].ends_with(":1") && fps[1].ends_with(":2"), "{fps:?}");
    }

    #[test]
    fn the_covered_lines_are_hashed() {
        let d = diag("src/a.rs", span(2, 1, 2, 1));
        assert_eq!(
            fingerprint_text(&d, Some("x\n  bad line here\n")),
            "badlinehere"
        );
    }

    #[test]
    fn uris_are_relative_and_escaped() {
        assert_eq!(
            uri_of("./src/my file#1.rs", None),
            ("src/my%20file%231.rs".to_string(), true)
        );
        assert_eq!(
            uri_of("/elsewhere/ä.rs", Some(Path::new("/repo"))),
            ("file:///elsewhere/%C3%A4.rs".to_string(), false)
        );
    }
}
