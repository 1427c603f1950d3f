//! The pipeline: discover → configure → read → parse → analyse → rules →
//! suppress → levels → filter → sort.

use std::collections::BTreeMap;

// Keys are the user's own paths and settings: no HashDoS to defend against.
use rustc_hash::FxHashMap as HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use crate::analysis::index::ParsedFile;
use crate::analysis::vocab::Vocabulary;
use crate::analysis::{self, eval::span_of};
use crate::cache::{self, Cache, Memo, Remembered, Stamp};
use crate::config::{self, ConfigError, ConfigSource, PlannedUnit, Resolver};
use crate::diagnostic::{Diagnostic, Position, Severity, Span};
use crate::discover::{self, DiscoverOptions, FileEntry, FileKind, WalkProblem};
use crate::lex;
use crate::memory_budget::{self, Budget};
use crate::prefilter::{FilePlan, Prefilter};
use crate::rules::{self, parse_error, Sink};
use crate::source::{self, ReadError};
use crate::suppress;

/// Stack size of analysis threads: deeply nested code must not overflow.
const STACK_SIZE: usize = 256 * 1024 * 1024;

/// Files whose [`crate::lex::nesting_score`] exceeds this are not parsed:
/// syn's recursive descent overflowed the 256 MiB stack of a debug build at
/// about 10,000 nested generics, so this keeps a tenfold margin while no
/// hand-written code comes near it.
pub const MAX_NESTING: usize = 1000;

/// Test hook: when set, analysing a unit with a file containing this text
/// panics, proving that a panic becomes IDEM000 instead of killing the run.
const PANIC_ENV: &str = "IDEM_LINT_TEST_PANIC_MARKER";

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
    /// Parse only the files the lexical pre-filter selects (`--no-prefilter`: all).
    pub prefilter: bool,
    /// Where the result cache lives (`None`: no cache).
    pub cache_dir: Option<PathBuf>,
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
            prefilter: true,
            cache_dir: None,
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
    let prefilter = options.prefilter.then(|| Prefilter::new(&options.vocab));
    let cache = options
        .cache_dir
        .as_deref()
        .and_then(Cache::open)
        .map(|cache| {
            // Everything that can change a unit's findings, by its `Debug` form
            // so that new options are covered by default. Filters applied after
            // the analysis (select, ignore, exclude) and `jobs` are left out.
            let normalized = LintOptions {
                jobs: 0,
                select: Vec::new(),
                ignore: Vec::new(),
                exclude: Vec::new(),
                cache_dir: None,
                ..options.clone()
            };
            (cache, cache::config_hash(&format!("{normalized:?}")))
        });
    let memo = cache.as_ref().map(|(cache, _)| cache.load_memo());
    // Each distinct configuration's part of the key, hashed once, not per unit.
    let mut settings_hashes: HashMap<usize, u128> = HashMap::default();
    if cache.is_some() {
        for plan in &planned {
            settings_hashes
                .entry(Arc::as_ptr(&plan.settings) as usize)
                .or_insert_with(|| cache::config_hash(&format!("{:?}", plan.settings)));
        }
    }
    let budget = Budget::default();
    let mut outputs: Vec<UnitOutput> = pool.install(|| {
        planned
            .par_iter()
            .map(|plan| {
                let cache = cache
                    .as_ref()
                    .zip(memo.as_ref())
                    .map(|((cache, config), memo)| {
                        let settings = settings_hashes
                            .get(&(Arc::as_ptr(&plan.settings) as usize))
                            .copied()
                            .unwrap_or_else(|| cache::config_hash(&format!("{:?}", plan.settings)));
                        Cached {
                            cache,
                            memo,
                            config: *config,
                            settings,
                        }
                    });
                lint_unit(plan, options, prefilter.as_ref(), cache, &budget)
            })
            .collect()
    });
    if let (Some((cache, _)), Some(memo)) = (&cache, memo) {
        let stamps = outputs
            .iter_mut()
            .flat_map(|o| std::mem::take(&mut o.stamps));
        cache.store_memo(memo, stamps.collect());
    }
    let mut result = LintResult {
        fatal: found.fatal,
        ..LintResult::default()
    };
    for problem in found.problems {
        result
            .diagnostics
            .push(file_problem(&problem.display, &problem.message, 1, 1));
    }
    // The contract: an explicitly named file that cannot be read fails the
    // run (exit 2); one found by walking a directory is only a warning.
    let explicit: std::collections::BTreeSet<String> = paths
        .iter()
        .filter(|p| !p.is_dir())
        .map(|p| discover::display_path(p))
        .collect();
    for output in outputs {
        for failure in output.read_failures {
            if explicit.contains(&failure.display) {
                result.fatal.push(failure);
            } else {
                result
                    .diagnostics
                    .push(file_problem(&failure.display, &failure.message, 1, 1));
            }
        }
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

/// Whether the command line's `--select`/`--ignore` let `code` through.
pub fn enabled(code: &str, options: &LintOptions) -> bool {
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
    /// Files the OS refused to read.
    read_failures: Vec<WalkProblem>,
    /// Files read this run, for the cache's stamp memo.
    stamps: Vec<(String, Stamp, Remembered)>,
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

/// The result cache as one unit sees it.
#[derive(Clone, Copy)]
struct Cached<'a> {
    cache: &'a Cache,
    memo: &'a Memo,
    /// Hash of the options that can change findings.
    config: u128,
    /// Hash of the unit's own configuration.
    settings: u128,
}

fn lint_unit(
    plan: &PlannedUnit,
    options: &LintOptions,
    prefilter: Option<&Prefilter>,
    cached: Option<Cached>,
    budget: &Budget,
) -> UnitOutput {
    let unit = &plan.unit;
    let vocab = &plan.settings.vocab;
    if let Some(out) = cached.and_then(|cached| replay_unchanged(plan, options, cached)) {
        return out;
    }
    let mut out = UnitOutput {
        files: 0,
        diagnostics: Vec::new(),
        sources: BTreeMap::new(),
        read_failures: Vec::new(),
        stamps: Vec::new(),
    };
    let mut texts: Vec<(&FileEntry, Arc<String>)> = Vec::new();
    let mut sql_texts: Vec<(&FileEntry, Arc<String>)> = Vec::new();
    // Content hashes, for the cache key and the stamp memo.
    let mut hashes: HashMap<&str, u128> = HashMap::default();
    // Stamped before reading: a change while reading gives a new stamp.
    let metas: Vec<Option<std::fs::Metadata>> = unit
        .files
        .iter()
        .map(|entry| std::fs::metadata(&entry.path).ok())
        .collect();
    let limits: Vec<u64> = plan
        .files
        .iter()
        .map(|settings| file_size_limit(options, settings))
        .collect();
    let text_bytes: u64 = (unit.files.iter().zip(&metas).zip(&limits))
        .filter(|((entry, _), _)| entry.kind == FileKind::Rust)
        .filter_map(|((_, meta), limit)| meta.as_ref().map(|m| m.len()).filter(|len| len <= limit))
        .sum();
    let mut lease = budget.lease(memory_budget::estimate(text_bytes as usize, 0));
    for ((entry, meta), &limit) in unit.files.iter().zip(&metas).zip(&limits) {
        let stamp = cached.and(meta.as_ref()).map(Stamp::of);
        let text = match source::read_text(&entry.path, limit) {
            Ok(text) => text,
            Err(err) => {
                let (line, column) = err.position();
                let message = err.to_string();
                if let ReadError::Io(_) = err {
                    // Whether this fails the run depends on how the path was named.
                    out.read_failures.push(WalkProblem {
                        display: entry.display.clone(),
                        message,
                    });
                    continue;
                }
                out.diagnostics
                    .push(file_problem(&entry.display, &message, line, column));
                continue;
            }
        };
        out.files += 1;
        if cached.is_some() {
            let hash = xxhash_rust::xxh3::xxh3_128(text.as_bytes());
            hashes.insert(entry.display.as_str(), hash);
            if let Some(stamp) = stamp {
                let remembered = Remembered {
                    hash,
                    suppression: text.contains("idem-lint:"),
                };
                out.stamps.push((path_key(entry), stamp, remembered));
            }
        }
        let text = Arc::new(text);
        out.sources.insert(entry.display.clone(), text.clone());
        match entry.kind {
            FileKind::Rust => texts.push((entry, text)),
            FileKind::Sql => sql_texts.push((entry, text)),
        }
    }
    // The key covers every file of the unit (summaries cross files) and the
    // unit's own configuration.
    let key = cached.map(|cached| {
        unit_key(plan, cached, |entry| {
            hashes.get(entry.display.as_str()).copied()
        })
    });
    if let (Some(cached), Some(key)) = (cached, key) {
        if let Some(diagnostics) = cached.cache.load(key) {
            out.diagnostics.extend(diagnostics);
            retain_used_sources(&mut out);
            return out;
        }
    }
    let read_problems = out.diagnostics.len();
    // A crate with its own configured vocabulary needs its own pre-filter.
    let own_prefilter;
    let prefilter = match prefilter {
        Some(shared) if *vocab == options.vocab => Some(shared),
        Some(_) => {
            own_prefilter = Prefilter::new(vocab);
            Some(&own_prefilter)
        }
        None => None,
    };
    let planning = std::time::Instant::now();
    let whole = FilePlan::Parse { blank: Vec::new() };
    let plans = match prefilter {
        Some(prefilter) => {
            let plain: Vec<&str> = texts.iter().map(|(_, t)| t.as_str()).collect();
            prefilter.plan(&plain)
        }
        None => vec![whole.clone(); texts.len()],
    };
    // A file with a suppression comment is parsed whole whatever the filter
    // says: whether that suppression is used depends on its findings
    // (IDEM000 too).
    let plans: Vec<FilePlan> = plans
        .into_iter()
        .zip(&texts)
        .map(|(plan, (_, text))| {
            if text.contains("idem-lint:") {
                whole.clone()
            } else {
                plan
            }
        })
        .collect();
    // Read from every text before the pre-filter drops any (IDEM003).
    let context = vocab.has_idempotency_context(
        texts
            .iter()
            .chain(&sql_texts)
            .map(|(_, text)| text.as_str()),
    );
    // Files that are not parsed cannot have findings: their text goes now.
    let unit_files = texts.len();
    let mut work = Vec::new();
    for ((entry, text), plan) in texts.into_iter().zip(plans) {
        match plan {
            FilePlan::Skip => {
                out.sources.remove(&entry.display);
            }
            FilePlan::Parse { blank } => work.push((entry, text, blank)),
        }
    }
    let planned_in = planning.elapsed();
    let started = std::time::Instant::now();
    let parse_bytes: usize = work
        .iter()
        .map(|(_, text, blank)| text.len() - blanked_len(blank).min(text.len()))
        .sum();
    lease.resize(memory_budget::estimate(0, parse_bytes));
    let chosen = work.len();
    let mut parsed = Vec::new();
    let mut paths = Vec::new();
    let mut panic_marked = false;
    for (entry, text, blank) in &work {
        if lex::nesting_score(text) > MAX_NESTING {
            out.diagnostics.push(file_problem(
                &entry.display,
                &format!("skipped: nesting deeper than {MAX_NESTING} levels"),
                1,
                1,
            ));
            continue;
        }
        if let Some(marker) = std::env::var_os(PANIC_ENV) {
            if text.contains(&*marker.to_string_lossy()) {
                panic_marked = true;
            }
        }
        let parse = catch_unwind(AssertUnwindSafe(|| parse_planned(text, blank)));
        match parse {
            Ok(Ok(ast)) => {
                parsed.push(ParsedFile {
                    id: paths.len() as u32,
                    ast,
                });
                paths.push(entry.display.clone());
            }
            Ok(Err(err)) => out.diagnostics.push(parse_problem(&entry.display, &err)),
            Err(_) => out.diagnostics.push(file_problem(
                &entry.display,
                "internal error while parsing (a bug in idem-lint; please report it)",
                1,
                1,
            )),
        }
    }
    drop(work);
    let parsed_in = started.elapsed();
    // SQL migrations are small and always analysed (IDEM008).
    let mut sql_files = Vec::new();
    for (entry, text) in sql_texts {
        sql_files.push(analysis::sql::SqlFile {
            id: paths.len() as u32,
            text,
        });
        paths.push(entry.display.clone());
    }
    let analysed = catch_unwind(AssertUnwindSafe(|| {
        if panic_marked {
            panic!("{PANIC_ENV} found: forced panic");
        }
        let mut facts = analysis::analyze(&parsed, vocab);
        facts.sql = analysis::sql::collect(&parsed, &sql_files, vocab);
        facts.without_idempotency_context = !context;
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
    if std::env::var_os("IDEM_LINT_UNIT_STATS").is_some() && chosen > 0 {
        eprintln!(
            "[idem-lint unit] {}: parsed {chosen}/{unit_files} files, {parse_bytes} of {text_bytes} bytes; plan {planned_in:?}, parse {parsed_in:?}, all {:?}",
            unit.files[0].display,
            started.elapsed()
        );
    }
    // span-locations keeps every parsed file's text per thread until told otherwise.
    proc_macro2::extra::invalidate_current_thread_spans();
    drop(lease);
    if let (Some(cached), Some(key)) = (cached, key) {
        let fresh = &out.diagnostics[read_problems..];
        // A panic may depend on more than the inputs (the test hook does).
        if !fresh
            .iter()
            .any(|d| d.message.starts_with("internal error"))
        {
            cached.cache.store(key, fresh);
        }
    }
    retain_used_sources(&mut out);
    out
}

/// The size limit of one file: `--max-file-size` wins over configuration.
fn file_size_limit(options: &LintOptions, settings: &config::Settings) -> u64 {
    match settings.max_file_size() {
        Some(configured) if !options.max_file_size_fixed => configured,
        _ => options.max_file_size,
    }
}

/// A unit's cache key: the configuration, and per file its path, size
/// limit and content hash (`None`: unreadable).
fn unit_key(
    plan: &PlannedUnit,
    cached: Cached,
    hash_of: impl Fn(&FileEntry) -> Option<u128>,
) -> cache::Key {
    let mut key = cache::KeyBuilder::new(cached.config);
    key.add(&cached.settings.to_le_bytes());
    for (entry, settings) in plan.unit.files.iter().zip(&plan.files) {
        key.add(entry.display.as_bytes());
        match settings.max_file_size() {
            Some(limit) => key.add(&limit.to_le_bytes()),
            None => key.add(b"\0unlimited"),
        }
        match hash_of(entry) {
            Some(hash) => key.add(&hash.to_le_bytes()),
            None => key.add(b"\0unreadable"),
        }
    }
    key.finish()
}

/// How the stamp memo names a file.
fn path_key(entry: &FileEntry) -> String {
    entry.path.to_string_lossy().into_owned()
}

/// A warm run's shortcut: when every file of the unit has the stamp the
/// memo remembers (so its contents hash as remembered) and the cache holds
/// the unit's result, that result is replayed, reading only the files it
/// reports on or that carry a suppression comment. `None`: run the unit.
fn replay_unchanged(
    plan: &PlannedUnit,
    options: &LintOptions,
    cached: Cached,
) -> Option<UnitOutput> {
    let mut remembered = BTreeMap::new();
    for (entry, settings) in plan.unit.files.iter().zip(&plan.files) {
        let limit = file_size_limit(options, settings);
        let meta = std::fs::metadata(&entry.path).ok()?;
        if !meta.is_file() || meta.len() > limit {
            return None;
        }
        let known = cached.memo.get(&path_key(entry), &Stamp::of(&meta))?;
        remembered.insert(entry.display.as_str(), (entry, known, limit));
    }
    let key = unit_key(plan, cached, |entry| {
        remembered
            .get(entry.display.as_str())
            .map(|(_, r, _)| r.hash)
    });
    let diagnostics = cached.cache.load(key)?;
    let mut out = UnitOutput {
        files: plan.unit.files.len(),
        diagnostics,
        sources: BTreeMap::new(),
        read_failures: Vec::new(),
        stamps: Vec::new(),
    };
    let reported: std::collections::BTreeSet<&str> =
        out.diagnostics.iter().map(|d| d.path.as_str()).collect();
    for (display, (entry, known, limit)) in &remembered {
        if known.suppression || reported.contains(display) {
            // Changed since it was stamped: run the unit after all.
            let text = source::read_text(&entry.path, *limit).ok()?;
            if xxhash_rust::xxh3::xxh3_128(text.as_bytes()) != known.hash {
                return None;
            }
            out.sources.insert(display.to_string(), Arc::new(text));
        }
    }
    retain_used_sources(&mut out);
    Some(out)
}

/// How many bytes `ranges` (sorted by start, possibly overlapping) cover.
fn blanked_len(ranges: &[std::ops::Range<usize>]) -> usize {
    let mut covered = 0;
    let mut end = 0;
    for range in ranges {
        let start = range.start.max(end);
        if range.end > start {
            covered += range.end - start;
            end = range.end;
        }
    }
    covered
}

/// Parses `text` with the planned ranges blanked. Should the blanked text
/// not parse where the file does (a blanked range the scan got wrong), the
/// file is parsed whole: blanking may save work, never change a result.
fn parse_planned(text: &str, blank: &[std::ops::Range<usize>]) -> syn::Result<syn::File> {
    if blank.is_empty() {
        return syn::parse_file(text);
    }
    let blanked = crate::prefilter::blank(text, blank);
    syn::parse_file(&blanked).or_else(|_| syn::parse_file(text))
}

/// IDEM000 where syn stopped.
fn parse_problem(display: &str, err: &syn::Error) -> Diagnostic {
    let at = span_of(err.span()).start;
    file_problem(
        display,
        &format!("cannot parse Rust: {err}"),
        at.line,
        at.column,
    )
}

/// Only files with findings need their text for snippets; keeping every
/// file's text until the end of the run would hold the whole corpus.
fn retain_used_sources(out: &mut UnitOutput) {
    let used: std::collections::BTreeSet<&str> =
        out.diagnostics.iter().map(|d| d.path.as_str()).collect();
    // Suppression comments are checked after the analysis (an unused one is
    // a finding of its own), so files that carry one keep their text too.
    out.sources
        .retain(|path, text| used.contains(path.as_str()) || text.contains("idem-lint:"));
}

/// Lints one in-memory Rust file as a unit of its own, without catching
/// panics: the entry point for fuzzing (a panic here is a bug that
/// `lint_paths` would report as IDEM000 "internal error").
///
/// `prefilter` plans the file as `lint_paths` does (build it once with
/// [`Prefilter::new`] from `options.vocab`: building it costs more than
/// linting a small file); `None` analyses the whole file, as
/// `--no-prefilter` does. `options.prefilter` is not consulted.
pub fn lint_text(
    display: &str,
    bytes: &[u8],
    options: &LintOptions,
    prefilter: Option<&Prefilter>,
) -> Vec<Diagnostic> {
    let problem = |message: String| vec![file_problem(display, &message, 1, 1)];
    let text = match source::decode(bytes.to_vec()) {
        Ok(text) => text,
        Err(err) => return problem(err.to_string()),
    };
    // The same plan `lint_unit` makes, so fuzzing covers the blanking too.
    let mut blank = Vec::new();
    if let Some(prefilter) = prefilter.filter(|_| !text.contains("idem-lint:")) {
        match prefilter.plan(&[&text]).pop() {
            Some(FilePlan::Parse { blank: planned }) => blank = planned,
            _ => return Vec::new(),
        }
    }
    if lex::nesting_score(&text) > MAX_NESTING {
        return problem(format!("skipped: nesting deeper than {MAX_NESTING} levels"));
    }
    let ast = match parse_planned(&text, &blank) {
        Ok(ast) => ast,
        Err(err) => {
            let problem = parse_problem(display, &err);
            // A failed parse leaves its text in the thread's span table too.
            proc_macro2::extra::invalidate_current_thread_spans();
            return vec![problem];
        }
    };
    let parsed = [ParsedFile { id: 0, ast }];
    let paths = [display.to_string()];
    let mut facts = analysis::analyze(&parsed, &options.vocab);
    facts.without_idempotency_context = !options.vocab.has_idempotency_context([text.as_str()]);
    let mut sink = Sink {
        paths: &paths,
        out: Vec::new(),
    };
    rules::run_all(&facts, &mut sink);
    drop(parsed);
    proc_macro2::extra::invalidate_current_thread_spans();
    sink.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanked_len_counts_overlaps_once() {
        assert_eq!(blanked_len(&[]), 0);
        assert_eq!(blanked_len(&[0..4, 10..12]), 6);
        // A table inside a blanked item, and a range sharing an end.
        assert_eq!(blanked_len(&[0..10, 2..5, 10..15]), 15);
        assert_eq!(blanked_len(&[0..10, 5..20]), 20);
    }
}
