//! The pipeline: discover → configure → read → parse → analyse → rules →
//! suppress → levels → filter → sort.
//!
//! [`lint_paths`] discovers and configures the units (a crate, or a file
//! outside any crate), lints each on a worker thread (`unit`: cache lookup,
//! read, pre-filter plan, parse, analyse, rules, cache store), then applies
//! suppressions, configured levels and the command line's filters to all
//! findings together. [`lint_text`] lints one in-memory file the same way,
//! for fuzzing.

mod cached;
mod delimiters;
mod options;
mod output;
mod parse;
mod problems;
mod rounds;
mod stdin;
#[cfg(feature = "test-hooks")]
mod test_hooks;
mod test_modules;
mod unit;
mod workspace;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

// Keys are the user's own paths and settings: no HashDoS to defend against.
use rustc_hash::FxHashMap as HashMap;

use rayon::prelude::*;

use crate::analysis::workspace_flow::Seeds;
use crate::analysis::{self, index::ParsedFile};
use crate::config::{self, ConfigError, PlannedUnit, Resolver};
use crate::discover::{self, DiscoverOptions, WalkProblem};
use crate::lex;
use crate::memory_budget::{self, Budget};
use crate::model::Diagnostic;
use crate::prefilter::{FilePlan, Prefilter};
use crate::rules::{self, Sink};
use crate::source;
use crate::suppress;

use cached::RunCache;
use output::UnitOutput;
use parse::parse_planned;
use problems::{file_problem, parse_problem};
use unit::StatFiles;

pub use crate::model::LintResult;
pub use options::{enabled, LintOptions};
pub use parse::MAX_NESTING;
pub use stdin::lint_stdin;

/// How many crates a client key is followed through, one pass each
/// (`workspace`): handlers, services, storage, and one more.
const MAX_CRATE_CROSSINGS: usize = 4;

/// Stack size of analysis threads: deeply nested code must not overflow.
const STACK_SIZE: usize = 256 * 1024 * 1024;

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
    let mut found = discover::discover(
        paths,
        &DiscoverOptions {
            exclude: options.exclude.clone(),
        },
    );
    // Before configuration and the cache: other shards' units cost nothing.
    if let Some(partition) = &options.partition {
        partition.retain(&mut found);
    }
    let mut resolver = Resolver::new(&options.config, &options.vocab)?;
    let planned = resolver.plan(found.units)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .stack_size(STACK_SIZE)
        .build()
        .map_err(|e| LintError::ThreadPool(e.to_string()))?;
    let prefilter = options.prefilter.then(|| Prefilter::new(&options.vocab));
    let cache = RunCache::open(options, &planned);
    let budget = Budget::default();
    // Stated once, before anything is read: what each unit will hold in
    // memory decides when it runs (`memory_budget`), and its cache stamps.
    let stats: Vec<StatFiles> = pool.install(|| {
        (planned.par_iter())
            .map(|plan| StatFiles::of(plan, options))
            .collect()
    });
    if let Some(progress) = &options.progress {
        progress.start(planned.len(), stats.iter().map(StatFiles::rust_bytes).sum());
    }
    let no_seeds = Seeds::default();
    let units: Vec<(&PlannedUnit, StatFiles)> = planned.iter().zip(stats).collect();
    let lint_all = |units: &[(&PlannedUnit, &StatFiles, &Seeds)]| -> Vec<UnitOutput> {
        memory_budget::run_largest_first(
            &budget,
            &pool,
            units,
            |(_, files, _)| memory_budget::estimate(files.rust_bytes() as usize, 0),
            |&(plan, files, seeds), lease| {
                let cached = cache.as_ref().map(|cache| cache.for_unit(plan));
                // Counts the files parsed and functions evaluated inside it.
                let counted = options.progress.as_ref().map(|progress| progress.unit());
                let output = unit::lint_unit(
                    plan,
                    (files, seeds),
                    options,
                    prefilter.as_ref(),
                    cached,
                    lease,
                );
                if let Some(counted) = counted {
                    counted.done(plan.unit.files.len(), files.rust_bytes());
                }
                output
            },
        )
    };
    let first: Vec<(&PlannedUnit, &StatFiles, &Seeds)> = units
        .iter()
        .map(|(plan, files)| (*plan, files, &no_seeds))
        .collect();
    let mut outputs = lint_all(&first);
    // Flow between the workspace's crates: a unit whose parameters another
    // unit's calls give the client's key is linted again with those seeds,
    // until no unit's seeds change (a key passed on through a chain of
    // crates crosses one crate per pass).
    let manifests = workspace::Manifests::read(&planned);
    let mut seeds: Vec<Seeds> = vec![Seeds::default(); units.len()];
    for _pass in 0..MAX_CRATE_CROSSINGS {
        let calls: Vec<Vec<analysis::workspace_flow::Seed>> =
            outputs.iter().map(|out| out.key_calls.clone()).collect();
        let next = manifests.seeds(&calls);
        let changed: Vec<usize> = (0..units.len()).filter(|&n| next[n] != seeds[n]).collect();
        if changed.is_empty() {
            break;
        }
        seeds = next;
        let again: Vec<(&PlannedUnit, &StatFiles, &Seeds)> = (changed.iter())
            .map(|&n| (units[n].0, &units[n].1, &seeds[n]))
            .collect();
        for (n, output) in changed.iter().zip(lint_all(&again)) {
            outputs[*n] = output;
        }
    }
    if let Some(progress) = &options.progress {
        progress.finish();
    }
    if let Some(cache) = cache {
        cache.store_memo(&mut outputs);
    }
    let mut result = gather(paths, found.problems, found.fatal, outputs);
    suppress::apply(&mut result.diagnostics, &result.sources);
    // Context files were analysed for their siblings' sake; what is found in
    // them (IDEM000 too) is not reported.
    let context: BTreeSet<&str> = (planned.iter())
        .flat_map(|p| p.unit.files.iter())
        .filter(|f| f.context)
        .map(|f| f.display.as_str())
        .collect();
    if !context.is_empty() {
        (result.diagnostics).retain(|d| !context.contains(d.path.as_str()));
    }
    result.linted = (planned.iter())
        .flat_map(|p| p.unit.files.iter())
        .filter(|f| !f.context)
        .map(|f| f.display.clone())
        .collect();
    apply_levels(&mut result, &planned, &mut resolver, options)?;
    result.warnings = resolver.take_warnings();
    (result.diagnostics).retain(|d| enabled(d.code, options));
    result
        .diagnostics
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    result
        .diagnostics
        .dedup_by(|a, b| a.code == b.code && a.path == b.path && a.span == b.span);
    let used: BTreeSet<&String> = result.diagnostics.iter().map(|d| &d.path).collect();
    result.sources.retain(|path, _| used.contains(path));
    Ok(result)
}

/// The units' outputs and discovery's problems as one result.
fn gather(
    paths: &[PathBuf],
    problems: Vec<WalkProblem>,
    fatal: Vec<WalkProblem>,
    outputs: Vec<UnitOutput>,
) -> LintResult {
    // A named path that is there but cannot be read (a link loop, no
    // permission) fails the run and is a finding too, so JSON and SARIF
    // readers see it; one that does not exist is only the error.
    let unreadable = fatal
        .iter()
        .filter(|p| std::path::Path::new(&p.display).symlink_metadata().is_ok())
        .map(|p| file_problem(&p.display, &p.message, 1, 1));
    let mut result = LintResult {
        diagnostics: unreadable.collect(),
        fatal,
        ..LintResult::default()
    };
    for problem in problems {
        result
            .diagnostics
            .push(file_problem(&problem.display, &problem.message, 1, 1));
    }
    // The contract: an explicitly named file that cannot be read fails the
    // run (exit 2); one found by walking a directory is only a warning.
    let explicit: BTreeSet<String> = paths
        .iter()
        .filter(|p| !p.is_dir())
        .map(|p| discover::display_path(p))
        .collect();
    for output in outputs {
        for failure in output.read_failures {
            if explicit.contains(&failure.display) {
                result
                    .diagnostics
                    .push(file_problem(&failure.display, &failure.message, 1, 1));
                result.fatal.push(failure);
            } else {
                result
                    .diagnostics
                    .push(file_problem(&failure.display, &failure.message, 1, 1));
            }
        }
        result.files_analyzed += output.files;
        result.over_budget.extend(output.over_budget);
        result.diagnostics.extend(output.diagnostics);
        result.sources.extend(output.sources);
    }
    result
}

/// Each finding's level, and whether it is certain enough, as the
/// configuration of its file says.
fn apply_levels(
    result: &mut LintResult,
    planned: &[PlannedUnit],
    resolver: &mut Resolver,
    options: &LintOptions,
) -> Result<(), ConfigError> {
    let known: HashMap<String, Arc<config::Settings>> = planned
        .iter()
        .flat_map(|p| p.unit.files.iter().zip(&p.files))
        .map(|(entry, settings)| (entry.display.clone(), settings.clone()))
        .collect();
    config::apply_levels(
        &mut result.diagnostics,
        resolver,
        &known,
        !options.select.is_empty(),
        |settings| options.confidence_for(settings),
    )
}

/// Lints one in-memory Rust file as a unit of its own, without catching
/// panics: the entry point for fuzzing (a panic here is a bug that
/// `lint_paths` would report as IDEM000 "internal error").
///
/// `prefilter` plans the file as `lint_paths` does (build it once with
/// [`Prefilter::new`] from `options.vocab`: building it costs more than
/// linting a small file); `None` analyses the whole file, as
/// `--no-prefilter` does. `options.prefilter` is not consulted. Every rule
/// runs, IDEM008 on the DDL in the file's string literals (a lone Rust file
/// has no `*.sql` files beside it).
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
    // The plan `lint_unit` makes without rounds (`Demand::Everything`, which
    // selects what the rounds select and more), so fuzzing covers the
    // blanking too; the rounds are covered by tests/prefilter.rs.
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
    let mut facts = analysis::analyze(&parsed, &[], &options.vocab);
    facts.without_idempotency_context =
        !(options.vocab).has_idempotency_context(&[text.as_str()], &[], 1);
    if options.vocab.names_scope(&[text.as_str()]) == [true] {
        facts.scope_files = vec![0];
    }
    let mut sink = Sink::new(&paths);
    rules::run_all(&facts, &mut sink);
    drop(parsed);
    proc_macro2::extra::invalidate_current_thread_spans();
    sink.into_diagnostics()
}
