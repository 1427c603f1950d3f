//! Baselines: record today's findings (`--write-baseline FILE`) and report
//! only new ones later (`--baseline FILE`).
//!
//! A finding's identity has no line numbers: rule code, path (relative to the
//! baseline file's directory), the path of its enclosing item inside the file
//! (`Charges::create`, `handlers::create_charge` for an inline module) and a
//! hash of the normalised tokens of its primary span. Inserting lines above,
//! reformatting, or moving the function within the file keep the identity;
//! repeats of one identity are counted. An entry that no longer matches as
//! many findings as it counts is stale (the finding was fixed).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use syn::spanned::Spanned;

use crate::config::absolute;
use crate::discover::display_path;
use crate::model::{Diagnostic, LintResult, Position};
// The records a baseline file and its outcome are made of live in the
// model, which the renderers read without knowing about baselines.
pub use crate::model::{BaselineOutcome, Entry, Identity};

/// The version of the baseline file format.
pub const VERSION: u32 = 1;

/// The baseline file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// Entries sorted by path, code, item, fingerprint.
    pub entries: Vec<Entry>,
}

/// A baseline that cannot be read or written: the run fails (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BaselineError {
    /// The OS refused.
    #[error("{path}: {message}")]
    Io {
        /// The baseline file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// Not a baseline file.
    #[error("{path}:{line}:{column}: not an idem-lint baseline: {message}")]
    Invalid {
        /// The baseline file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Written by an incompatible version.
    #[error("{path}: baseline format version {found} is not supported (expected {VERSION}); write it again with --write-baseline")]
    Version {
        /// The baseline file.
        path: String,
        /// The version in the file.
        found: u32,
    },
}

/// The identities of `result`'s findings, in order, for a baseline at `file`.
pub fn identities(result: &LintResult, file: &Path) -> Vec<Identity> {
    let base = absolute(file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut items: BTreeMap<&str, Vec<ItemSpan>> = BTreeMap::new();
    let out = result
        .diagnostics
        .iter()
        .map(|d| {
            let text = result.sources.get(&d.path).map(|t| t.as_str());
            let spans = items
                .entry(d.path.as_str())
                .or_insert_with(|| text.map(item_spans).unwrap_or_default());
            Identity {
                path: relative_to(&base, &d.path),
                code: d.code.to_string(),
                item: enclosing(spans, d.span.start),
                fingerprint: fingerprint(text.unwrap_or(""), d),
            }
        })
        .collect();
    // span-locations keeps every parsed text per thread until told otherwise.
    proc_macro2::extra::invalidate_current_thread_spans();
    out
}

fn relative_to(base: &Path, display: &str) -> String {
    match absolute(Path::new(display)).strip_prefix(base) {
        Ok(rel) => display_path(rel),
        Err(_) => display.to_string(),
    }
}

/// The baseline of `result`'s findings, for a file at `file`.
pub fn build(result: &LintResult, file: &Path) -> Baseline {
    let mut counts: BTreeMap<Identity, (String, usize)> = BTreeMap::new();
    for (identity, d) in identities(result, file)
        .into_iter()
        .zip(&result.diagnostics)
    {
        counts
            .entry(identity)
            .or_insert_with(|| (d.name.to_string(), 0))
            .1 += 1;
    }
    Baseline {
        version: VERSION,
        entries: counts
            .into_iter()
            .map(|(identity, (name, count))| Entry {
                identity,
                name,
                count,
            })
            .collect(),
    }
}

/// Writes the baseline of `result` to `file`; returns it.
pub fn write(result: &LintResult, file: &Path) -> Result<Baseline, BaselineError> {
    let baseline = build(result, file);
    let mut text = serde_json::to_string_pretty(&baseline).map_err(|e| BaselineError::Io {
        path: display_path(file),
        message: e.to_string(),
    })?;
    text.push('\n');
    std::fs::write(file, text).map_err(|e| BaselineError::Io {
        path: display_path(file),
        message: format!("cannot write baseline: {e}"),
    })?;
    Ok(baseline)
}

/// Reads a baseline file.
pub fn load(file: &Path) -> Result<Baseline, BaselineError> {
    let shown = display_path(file);
    let text = std::fs::read_to_string(file).map_err(|e| BaselineError::Io {
        path: shown.clone(),
        message: format!("cannot read baseline: {e}"),
    })?;
    // Check the version first, so an old or future format gets a clear message.
    #[derive(Deserialize)]
    struct Versioned {
        version: u32,
    }
    let invalid = |e: serde_json::Error| BaselineError::Invalid {
        path: shown.clone(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    };
    let versioned: Versioned = serde_json::from_str(&text).map_err(invalid)?;
    if versioned.version != VERSION {
        return Err(BaselineError::Version {
            path: shown,
            found: versioned.version,
        });
    }
    serde_json::from_str(&text).map_err(invalid)
}

/// Hides the findings `baseline` (read from `file`) lists and records stale
/// entries. Only entries of files linted in this run (`linted`, display
/// paths) and of rules `enabled` in it can be stale.
pub fn apply(
    result: &mut LintResult,
    baseline: &Baseline,
    file: &Path,
    linted: &BTreeSet<String>,
    enabled: impl Fn(&str) -> bool,
) {
    let ids = identities(result, file);
    let mut budget: BTreeMap<&Identity, usize> = baseline
        .entries
        .iter()
        .map(|e| (&e.identity, e.count))
        .collect();
    let mut kept = Vec::with_capacity(result.diagnostics.len());
    let mut suppressed = 0;
    for (d, id) in std::mem::take(&mut result.diagnostics)
        .into_iter()
        .zip(&ids)
    {
        match budget.get_mut(id) {
            Some(left) if *left > 0 => {
                *left -= 1;
                suppressed += 1;
            }
            _ => kept.push(d),
        }
    }
    result.diagnostics = kept;
    let base = absolute(file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let linted: BTreeSet<String> = linted.iter().map(|p| relative_to(&base, p)).collect();
    let stale = baseline
        .entries
        .iter()
        .filter_map(|e| {
            let left = budget.get(&e.identity).copied().unwrap_or(0);
            (left > 0 && linted.contains(&e.identity.path) && enabled(&e.identity.code)).then(
                || Entry {
                    count: left,
                    ..e.clone()
                },
            )
        })
        .collect();
    let used: BTreeSet<&String> = result.diagnostics.iter().map(|d| &d.path).collect();
    result.sources.retain(|path, _| used.contains(path));
    result.baseline = Some(BaselineOutcome { suppressed, stale });
}

/// An item of a file: where it starts and ends, and its path.
#[derive(Debug, Clone)]
struct ItemSpan {
    start: Position,
    end: Position,
    path: String,
}

fn position(lc: proc_macro2::LineColumn) -> Position {
    Position {
        line: lc.line,
        column: lc.column + 1,
    }
}

/// Every named item of the file (functions, methods, impls, traits, modules,
/// consts, statics, types) with its path; empty when the file does not parse.
fn item_spans(text: &str) -> Vec<ItemSpan> {
    let mut out = Vec::new();
    if let Ok(file) = syn::parse_file(text) {
        collect(&file.items, "", &mut out);
    }
    out
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}::{name}")
    }
}

fn push(out: &mut Vec<ItemSpan>, node: &impl Spanned, path: String) {
    let span = node.span();
    out.push(ItemSpan {
        start: position(span.start()),
        end: position(span.end()),
        path,
    });
}

fn collect(items: &[syn::Item], prefix: &str, out: &mut Vec<ItemSpan>) {
    for item in items {
        match item {
            syn::Item::Fn(f) => push(out, f, join(prefix, &f.sig.ident.to_string())),
            syn::Item::Mod(m) => {
                let path = join(prefix, &m.ident.to_string());
                push(out, m, path.clone());
                if let Some((_, items)) = &m.content {
                    collect(items, &path, out);
                }
            }
            syn::Item::Impl(i) => {
                let ty = i.self_ty.as_ref();
                let name: String = quote::quote!(#ty)
                    .to_string()
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let path = join(prefix, &name);
                push(out, i, path.clone());
                for member in &i.items {
                    match member {
                        syn::ImplItem::Fn(f) => push(out, f, join(&path, &f.sig.ident.to_string())),
                        syn::ImplItem::Const(c) => push(out, c, join(&path, &c.ident.to_string())),
                        _ => {}
                    }
                }
            }
            syn::Item::Trait(t) => {
                let path = join(prefix, &t.ident.to_string());
                push(out, t, path.clone());
                for member in &t.items {
                    if let syn::TraitItem::Fn(f) = member {
                        push(out, f, join(&path, &f.sig.ident.to_string()));
                    }
                }
            }
            syn::Item::Const(c) => push(out, c, join(prefix, &c.ident.to_string())),
            syn::Item::Static(s) => push(out, s, join(prefix, &s.ident.to_string())),
            syn::Item::Struct(s) => push(out, s, join(prefix, &s.ident.to_string())),
            syn::Item::Enum(e) => push(out, e, join(prefix, &e.ident.to_string())),
            _ => {}
        }
    }
}

/// The innermost item containing `at` (the smallest span wins).
fn enclosing(items: &[ItemSpan], at: Position) -> String {
    items
        .iter()
        .filter(|i| i.start <= at && at < i.end)
        .min_by_key(|i| (i.end.line - i.start.line, std::cmp::Reverse(i.path.len())))
        .map(|i| i.path.clone())
        .unwrap_or_default()
}

/// The text of `d`'s primary span in `text`.
fn span_text<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    let offset = |p: Position| -> usize {
        let mut line_start = 0;
        for _ in 1..p.line {
            match text[line_start..].find('\n') {
                Some(i) => line_start += i + 1,
                None => return text.len(),
            }
        }
        let line = &text[line_start..];
        let line_end = line.find('\n').unwrap_or(line.len());
        line_start
            + line[..line_end]
                .char_indices()
                .nth(p.column.saturating_sub(1))
                .map_or(line_end, |(i, _)| i)
    };
    let (start, end) = (offset(d.span.start), offset(d.span.end));
    if start <= end {
        &text[start..end]
    } else {
        ""
    }
}

/// A hash of the span's tokens, so whitespace, comments and the trailing
/// commas rustfmt adds when it breaks a call over lines do not matter. Text
/// that does not lex as Rust (SQL, comments) is compared without whitespace.
fn fingerprint(text: &str, d: &Diagnostic) -> String {
    let snippet = span_text(text, d);
    let normalised = match TokenStream::from_str(snippet) {
        Ok(tokens) if !tokens.is_empty() => {
            let mut out = String::new();
            flatten(tokens, &mut out);
            out
        }
        _ => snippet.split_whitespace().collect::<Vec<_>>().join(" "),
    };
    let digest = Sha256::digest(normalised.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

fn flatten(tokens: TokenStream, out: &mut String) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let count = trees.len();
    for (i, tree) in trees.into_iter().enumerate() {
        match tree {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                flatten(g.stream(), out);
                out.push_str(close);
            }
            TokenTree::Punct(p) if p.as_char() == ',' && i + 1 == count => {}
            other => {
                out.push_str(&other.to_string());
                out.push(' ');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Severity, Span};

    fn diag(line: usize, col: usize, end_line: usize, end_col: usize) -> Diagnostic {
        Diagnostic {
            code: "IDEM001",
            name: "adhoc-key-concat",
            severity: Severity::Error,
            message: String::new(),
            path: "a.rs".into(),
            span: Span {
                start: Position { line, column: col },
                end: Position {
                    line: end_line,
                    column: end_col,
                },
            },
            labels: Vec::new(),
            help: None,
            fix: None,
            confidence: Default::default(),
            trace: Vec::new(),
        }
    }

    #[test]
    fn reformatting_keeps_the_fingerprint() {
        let one = "let k = format!(\"{}:{}\", tenant, key);\n";
        let many = "let k = format!(\n    \"{}:{}\",\n    tenant,\n    key, // why\n);\n";
        let a = fingerprint(one, &diag(1, 9, 1, 38));
        let b = fingerprint(many, &diag(1, 9, 5, 2));
        assert_eq!(
            span_text(one, &diag(1, 9, 1, 38)),
            "format!(\"{}:{}\", tenant, key)"
        );
        assert_eq!(a, b);
        let other = fingerprint(
            "let k = format!(\"{}:{}\", org, key);\n",
            &diag(1, 9, 1, 35),
        );
        assert_ne!(a, other);
    }

    #[test]
    fn innermost_item_path() {
        let text = "mod api {\n    impl Charges {\n        fn create(&self) {\n            x();\n        }\n    }\n}\nfn top() {}\n";
        let spans = item_spans(text);
        assert_eq!(
            enclosing(
                &spans,
                Position {
                    line: 4,
                    column: 13
                }
            ),
            "api::Charges::create"
        );
        assert_eq!(
            enclosing(
                &spans,
                Position {
                    line: 8,
                    column: 11
                }
            ),
            "top"
        );
        proc_macro2::extra::invalidate_current_thread_spans();
    }
}
