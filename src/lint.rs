//! The pipeline: discover → configure → read → parse → analyse → rules →
//! suppress → levels → filter → sort.

use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use crate::analysis::index::ParsedFile;
use crate::analysis::vocab::Vocabulary;
use crate::analysis::{self, eval::span_of};
use crate::config::{self, ConfigError, ConfigSource, PlannedUnit, Resolver};
use crate::diagnostic::{Diagnostic, Position, Severity, Span};
use crate::discover::{self, DiscoverOptions, FileKind, WalkProblem};
use crate::rules::{self, parse_error, Sink};
use crate::source::{self, ReadError};
use crate::suppress;

/// Stack size of analysis threads: deeply nested code must not overflow.
const STACK_SIZE: usize = 256 * 1024 * 1024;

/// How to lint.
#[derive(Debug, Clone)]
pub struct LintOptions {
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// Largest file analysed, in bytes.
    pub max_file_size: u64,
    /// Only these codes (empty: all).
    pub select: Vec<String>,
    /// Never these codes.
    pub ignore: Vec<String>,
    /// Naming vocabulary.
    pub vocab: Vocabulary,
    /// Paths to skip.
    pub exclude: Vec<String>,
    /// Where configuration comes from (default: discovered per file).
    pub config: ConfigSource,
    /// `max_file_size` wins over configuration (it was given on the command line).
    pub max_file_size_fixed: bool,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            jobs: 0,
            max_file_size: source::DEFAULT_MAX_FILE_SIZE,
            select: Vec::new(),
            ignore: Vec::new(),
            vocab: Vocabulary::default(),
            exclude: Vec::new(),
            config: ConfigSource::Discover,
            max_file_size_fixed: false,
        }
    }
}

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
    /// Display paths of every file linted (after exclusions).
    pub linted: std::collections::BTreeSet<String>,
    /// What a baseline did to the findings, when one was applied.
    pub baseline: Option<crate::baseline::BaselineOutcome>,
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

/// A runtime failure of the linter itself.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum LintError {
    /// The thread pool could not be created.
    #[error("cannot start worker threads: {0}")]
    ThreadPool(String),
    /// A configuration file is unreadable or invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// Lints `paths`.
pub fn lint_paths(paths: &[PathBuf], options: &LintOptions) -> Result<LintResult, LintError> {
    let found = discover::discover(
        paths,
        &DiscoverOptions {
            exclude: options.exclude.clone(),
        },
    );
    let mut resolver = Resolver::new(&options.config, &options.vocab)?;
    let planned = resolver.plan(found.units)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .stack_size(STACK_SIZE)
        .build()
        .map_err(|e| LintError::ThreadPool(e.to_string()))?;
    let outputs: Vec<UnitOutput> = pool.install(|| {
        planned
            .par_iter()
            .map(|plan| lint_unit(plan, options))
            .collect()
    });
    let mut result = LintResult {
        fatal: found.fatal,
        ..LintResult::default()
    };
    for problem in found.problems {
        result
            .diagnostics
            .push(file_problem(&problem.display, &problem.message, 1, 1));
    }
    for output in outputs {
        result.files_analyzed += output.files;
        result.diagnostics.extend(output.diagnostics);
        result.sources.extend(output.sources);
    }
    suppress::apply(&mut result.diagnostics, &result.sources);
    result.linted = planned
        .iter()
        .flat_map(|p| p.unit.files.iter().map(|f| f.display.clone()))
        .collect();
    let known: HashMap<String, Arc<config::Settings>> = planned
        .iter()
        .flat_map(|p| p.unit.files.iter().zip(&p.files))
        .map(|(entry, settings)| (entry.display.clone(), settings.clone()))
        .collect();
    config::apply_levels(
        &mut result.diagnostics,
        &mut resolver,
        &known,
        !options.select.is_empty(),
    )?;
    result.diagnostics.retain(|d| enabled(d.code, options));
    result
        .diagnostics
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    result
        .diagnostics
        .dedup_by(|a, b| a.code == b.code && a.path == b.path && a.span == b.span);
    let used: std::collections::BTreeSet<&String> =
        result.diagnostics.iter().map(|d| &d.path).collect();
    result.sources.retain(|path, _| used.contains(path));
    Ok(result)
}

fn enabled(code: &str, options: &LintOptions) -> bool {
    let listed = |list: &[String]| {
        list.iter().any(|c| {
            c.eq_ignore_ascii_case(code)
                || rules::find(c).is_some_and(|r| r.code == code)
                || (c.len() < code.len() && code.starts_with(&c.to_ascii_uppercase()))
        })
    };
    (options.select.is_empty() || listed(&options.select)) && !listed(&options.ignore)
}

/// What one unit produced.
struct UnitOutput {
    files: usize,
    diagnostics: Vec<Diagnostic>,
    sources: BTreeMap<String, Arc<String>>,
}

fn file_problem(path: &str, message: &str, line: usize, column: usize) -> Diagnostic {
    let pos = Position { line, column };
    Diagnostic {
        code: parse_error::RULE.code,
        name: parse_error::RULE.name,
        severity: parse_error::RULE.level,
        message: message.to_string(),
        path: path.to_string(),
        span: Span {
            start: pos,
            end: pos,
        },
        labels: Vec::new(),
        help: None,
    }
}

fn lint_unit(plan: &PlannedUnit, options: &LintOptions) -> UnitOutput {
    let unit = &plan.unit;
    let mut out = UnitOutput {
        files: 0,
        diagnostics: Vec::new(),
        sources: BTreeMap::new(),
    };
    let mut parsed = Vec::new();
    let mut paths = Vec::new();
    let mut sql_files = Vec::new();
    for (entry, settings) in unit.files.iter().zip(&plan.files) {
        let limit = match settings.max_file_size() {
            Some(configured) if !options.max_file_size_fixed => configured,
            _ => options.max_file_size,
        };
        let text = match source::read_text(&entry.path, limit) {
            Ok(text) => text,
            Err(err) => {
                let (line, column) = err.position();
                let message = match &err {
                    ReadError::Io(_) | ReadError::TooLarge { .. } | ReadError::Binary => {
                        err.to_string()
                    }
                    ReadError::InvalidUtf8 { .. } => err.to_string(),
                };
                out.diagnostics
                    .push(file_problem(&entry.display, &message, line, column));
                continue;
            }
        };
        out.files += 1;
        let text = Arc::new(text);
        out.sources.insert(entry.display.clone(), text.clone());
        if entry.kind == FileKind::Sql {
            sql_files.push(analysis::sql::SqlFile {
                id: paths.len() as u32,
                text: text.clone(),
            });
            paths.push(entry.display.clone());
            continue;
        }
        if entry.kind != FileKind::Rust {
            continue;
        }
        let parse = catch_unwind(AssertUnwindSafe(|| syn::parse_file(&text)));
        match parse {
            Ok(Ok(ast)) => {
                parsed.push(ParsedFile {
                    id: paths.len() as u32,
                    ast,
                });
                paths.push(entry.display.clone());
            }
            Ok(Err(err)) => {
                let span = span_of(err.span());
                out.diagnostics.push(file_problem(
                    &entry.display,
                    &format!("cannot parse Rust: {err}"),
                    span.start.line,
                    span.start.column,
                ));
            }
            Err(_) => out.diagnostics.push(file_problem(
                &entry.display,
                "internal error while parsing (a bug in idem-lint; please report it)",
                1,
                1,
            )),
        }
    }
    let analysed = catch_unwind(AssertUnwindSafe(|| {
        let mut facts = analysis::analyze(&parsed, &plan.settings.vocab);
        facts.sql = analysis::sql::collect(&parsed, &sql_files, &plan.settings.vocab);
        let mut sink = Sink {
            paths: &paths,
            out: Vec::new(),
        };
        rules::run_all(&facts, &mut sink);
        sink.out
    }));
    match analysed {
        Ok(diagnostics) => out.diagnostics.extend(diagnostics),
        Err(_) => {
            for path in &paths {
                out.diagnostics.push(file_problem(
                    path,
                    "internal error while analysing this file (a bug in idem-lint; please report it)",
                    1,
                    1,
                ));
            }
        }
    }
    drop(parsed);
    // span-locations keeps every parsed file's text per thread until told otherwise.
    proc_macro2::extra::invalidate_current_thread_spans();
    out
}
