//! Output formats. Only this module knows how findings are shown.

pub mod code_words;
pub mod github;
pub mod human;
pub mod json;
pub mod markdown;
pub mod paths;
pub mod rustc_json;
pub mod sarif;
pub mod short;

use crate::model::{LintResult, Severity};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// miette graphical reports.
    Human,
    /// Versioned JSON.
    Json,
    /// `path:line:col: CODE message`.
    Short,
    /// SARIF 2.1.0 (GitHub code scanning).
    Sarif,
    /// GitHub Actions `::error` annotations.
    Github,
    /// rustc JSON diagnostics in cargo `compiler-message` lines (editors),
    /// in one of cargo's `--message-format` flavours.
    RustcJson(rustc_json::Style),
}

impl Format {
    /// Whether programs read this format: nothing else may be mixed into it
    /// (statistics, progress).
    pub fn is_machine(self) -> bool {
        matches!(self, Format::Json | Format::Sarif | Format::RustcJson(_))
    }
}

/// [`RenderOptions::width`] for output that is not wrapped.
pub const NO_WRAP: usize = usize::MAX;

/// Rendering options.
#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    /// Use ANSI colours.
    pub color: bool,
    /// Terminal width for wrapping; [`NO_WRAP`] for none.
    pub width: usize,
    /// Only the findings, no summary line.
    pub quiet: bool,
    /// Print counts per rule.
    pub statistics: bool,
}

/// Renders a result in `format`.
pub fn render(result: &LintResult, format: Format, options: &RenderOptions) -> String {
    let mut out = match format {
        Format::Human => human::render(result, options),
        Format::Json => json::render(result),
        Format::Short => short::render(result, options),
        Format::Sarif => sarif::render(result),
        Format::Github => github::render(result, options),
        Format::RustcJson(style) => rustc_json::render(result, style),
    };
    // Machine-readable documents must stay parseable.
    if options.statistics && !format.is_machine() {
        out.push_str(&statistics(result));
    }
    out
}

/// Writes a result in `format` to `out`, like [`render`]. JSON and SARIF
/// are serialised straight into `out`: for 20k findings the whole document
/// held as one string was 41 MB (JSON) and 67 MB (SARIF), plus its growth.
pub fn write(
    result: &LintResult,
    format: Format,
    options: &RenderOptions,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    match format {
        // Machine formats get no statistics (see `render`).
        Format::Json => json::write(result, out),
        Format::Sarif => sarif::write(result, out),
        _ => out.write_all(render(result, format, options).as_bytes()),
    }
}

/// `N errors, M warnings in F of K files`: F files have findings, K were
/// analysed (`in K files` when nothing was found).
pub fn summary_line(result: &LintResult) -> String {
    let errors = result
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = result.diagnostics.len() - errors;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut with_findings: Vec<&str> = result.diagnostics.iter().map(|d| d.path.as_str()).collect();
    with_findings.sort_unstable();
    with_findings.dedup();
    // Unreadable files have findings (IDEM000) without being analysed.
    let files = match with_findings.len() {
        0 => plural(result.files_analyzed, "file"),
        n => format!("{n} of {}", plural(result.files_analyzed.max(n), "file")),
    };
    let mut line = format!(
        "{}, {} in {files}",
        plural(errors, "error"),
        plural(warnings, "warning"),
    );
    if let Some(baseline) = &result.baseline {
        let stale = baseline.stale.len();
        line.push_str(&format!(
            " ({} baselined, {stale} stale baseline {})",
            baseline.suppressed,
            if stale == 1 { "entry" } else { "entries" }
        ));
    }
    line
}

/// Counts per rule, most frequent first.
pub fn statistics(result: &LintResult) -> String {
    let mut counts: Vec<(&str, &str, usize)> = Vec::new();
    for d in &result.diagnostics {
        match counts.iter_mut().find(|(code, _, _)| *code == d.code) {
            Some(entry) => entry.2 += 1,
            None => counts.push((d.code, d.name, 1)),
        }
    }
    counts.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    counts
        .iter()
        .map(|(code, name, n)| format!("{n:>5}  {code}  {name}\n"))
        .collect()
}
