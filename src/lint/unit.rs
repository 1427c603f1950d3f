//! One unit (a crate, or a file outside any crate) through the pipeline:
//! cache lookup, read, plan, parse, analyse and run the rules, cache store.
//! A panic while parsing or analysing becomes an IDEM000 finding, not the
//! end of the run.

use std::fs::Metadata;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

// Keys are the user's own paths: no HashDoS to defend against.
use rustc_hash::FxHashMap as HashMap;

use crate::analysis;
use crate::analysis::sql::SqlFile;
use crate::analysis::vocab::Vocabulary;
use crate::analysis::workspace_flow::{Seed, Seeds};
use crate::cache::{Remembered, Stamp};
use crate::config::PlannedUnit;
use crate::discover::{FileEntry, FileKind, WalkProblem};
use crate::limits::{self, Exceeded};
use crate::memory_budget::{self, Lease};
use crate::model::Diagnostic;
use crate::prefilter::{Demand, FilePlan, Planner, Prefilter};
use crate::rules::{self, Sink};
use crate::source::{self, ReadError};

use super::cached::{path_key, replay_unchanged, unit_key, Cached};
use super::options::LintOptions;
use super::output::UnitOutput;
use super::parse::blanked_len;
use super::problems::file_problem;
use super::rounds::{learn, Parsed, Trees};

/// Lints one unit whose files are `files`, holding `lease` of the memory
/// budget (the estimate of `files`); `cached`: with the result cache;
/// `seeds`: the parameters other crates' calls give the client's key
/// (`analysis::workspace_flow`).
pub(super) fn lint_unit(
    plan: &PlannedUnit,
    (files, seeds): (&StatFiles<'_>, &Seeds),
    options: &LintOptions,
    prefilter: Option<&Prefilter>,
    cached: Option<Cached>,
    mut lease: Lease<'_>,
) -> UnitOutput {
    if let Some(out) =
        cached.and_then(|cached| replay_unchanged(plan, (&files.metas, seeds), options, cached))
    {
        return out;
    }
    // The pre-filter's selection knows no seeded parameter: a unit other
    // crates give the client's key is analysed whole.
    let prefilter = prefilter.filter(|_| seeds.is_empty());
    let mut out = UnitOutput::default();
    let read = read_files(plan, files, cached, &mut out);
    // The key covers every file of the unit (summaries cross files) and the
    // unit's own configuration.
    let key = cached.map(|cached| {
        unit_key(
            plan,
            cached,
            (options.unit_confidence(plan), seeds),
            |entry| read.hashes.get(entry.display.as_str()).copied(),
        )
    });
    if let Some((diagnostics, key_calls)) =
        cached.zip(key).and_then(|(c, key)| c.cache.load_unit(key))
    {
        out.diagnostics.extend(diagnostics);
        out.key_calls = key_calls;
        out.retain_used_sources();
        return out;
    }
    let read_problems = out.diagnostics.len();
    let planning = Instant::now();
    // Fields and parameters documented as the client's key (a serde rename
    // to its header, a description) are client-key names in this unit.
    let documented = documented_vocab(&plan.settings.vocab, &read.rust, options.threads());
    let vocab = documented.as_ref().unwrap_or(&plan.settings.vocab);
    let prefilter = unit_prefilter(prefilter, vocab, options);
    let sql: Vec<&str> = read.sql.iter().map(|(_, t)| t.as_str()).collect();
    let mut demand = match prefilter.get() {
        Some(_) => Demand::first_round(),
        None => Demand::Everything,
    };
    let plain: Vec<&str> = read.rust.iter().map(|(_, t)| t.as_str()).collect();
    let mut planner = (prefilter.get()).map(|p| p.planner(&plain, &sql, options.threads()));
    let mut plans = file_plans(&read.rust, planner.as_mut(), &demand);
    // Read from every text before the skipped ones are dropped (IDEM003),
    // and only where something will be analysed: an empty analysis reports
    // nothing whatever the context, and most units parse nothing. Later
    // rounds only add to what the first one parses.
    let analysed = !read.sql.is_empty() || plans.iter().any(|p| *p != FilePlan::Skip);
    let context = analysed && vocab.has_idempotency_context(&plain, &sql, options.threads());
    let scope_named = if analysed && !context {
        vocab.names_scope(&plain)
    } else {
        Vec::new()
    };
    let mut stats = UnitStats::start(&plans, &read.rust, files.rust_bytes(), planning.elapsed());
    lease.resize(memory_budget::estimate(0, stats.parse_bytes));
    let limited = limits::enter(options.unit_limits);
    let mut trees = Trees::new(super::test_modules::test_module_files(&read.rust));
    // Each round analyses a larger selection, until the plan repeats.
    let analysis = loop {
        stats.rounds += 1;
        let parsing = Instant::now();
        let parsed = trees.parse(&read.rust, &plans, options.threads());
        stats.parsed_in += parsing.elapsed();
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(exceeded) => break Err((Some(exceeded), Vec::new())),
        };
        let analysing = Instant::now();
        let facts = match analyse(vocab, &parsed, &read, (context, &scope_named), seeds) {
            Ok(facts) => facts,
            Err(exceeded) => break Err((exceeded, parsed.paths)),
        };
        stats.round(
            parsed.files.len(),
            facts.functions.len(),
            analysing.elapsed(),
        );
        if !learn(&mut demand, &facts, &parsed, options.unit_confidence(plan)) {
            break Ok((parsed, facts));
        }
        let next = file_plans(&read.rust, planner.as_mut(), &demand);
        if next == plans {
            break Ok((parsed, facts));
        }
        trees.give_back(parsed);
        plans = next;
        // The memory budget follows what the rounds parse.
        stats.finish(&plans, &read.rust);
        lease.resize(memory_budget::estimate(0, stats.parse_bytes));
    };
    // Claims and DDL are read once, from the last round's files.
    let analysis =
        analysis.and_then(
            |(parsed, facts)| match complete(vocab, &parsed, &read, facts) {
                Ok(facts) => Ok((parsed, facts)),
                Err(exceeded) => Err((exceeded, parsed.paths)),
            },
        );
    drop(sql);
    stats.finish(&plans, &read.rust);
    out.diagnostics.extend(trees.problems(&plans));
    // The texts of files not parsed leave `out` now (they cannot have findings).
    for ((entry, _), plan) in read.rust.iter().zip(&plans) {
        if *plan == FilePlan::Skip {
            out.sources.remove(&entry.display);
        }
    }
    match analysis {
        Ok((parsed, facts)) => report(plan, vocab, parsed, read.sql, facts, &mut out),
        Err((Some(exceeded), _)) => over_budget(plan, exceeded, &mut out),
        Err((None, paths)) => {
            let sql = read.sql.iter().map(|(entry, _)| &entry.display);
            internal_error(paths.iter().chain(sql), &mut out)
        }
    }
    drop(limited);
    stats.print(plan);
    // span-locations keeps every parsed file's text per thread until told otherwise.
    proc_macro2::extra::invalidate_current_thread_spans();
    drop(lease);
    if let Some((cached, key)) = cached.zip(key) {
        store(
            cached,
            key,
            &out.diagnostics[read_problems..],
            &out.key_calls,
        );
    }
    out.retain_used_sources();
    out
}

/// The unit's files as found before reading: their metadata (stamped
/// before reading, so that a change while reading gives a new stamp) and
/// size limits.
pub(super) struct StatFiles<'a> {
    entries: &'a [FileEntry],
    metas: Vec<Option<Metadata>>,
    limits: Vec<u64>,
}

impl<'a> StatFiles<'a> {
    /// States every file of `plan` and takes its size limit.
    pub(super) fn of(plan: &'a PlannedUnit, options: &LintOptions) -> StatFiles<'a> {
        StatFiles {
            entries: &plan.unit.files,
            metas: (plan.unit.files.iter())
                .map(|entry| std::fs::metadata(&entry.path).ok())
                .collect(),
            limits: (plan.files.iter())
                .map(|settings| options.file_size_limit(settings))
                .collect(),
        }
    }

    /// Bytes of the Rust files that will be read, for the memory budget.
    pub(super) fn rust_bytes(&self) -> u64 {
        (self.entries.iter().zip(&self.metas).zip(&self.limits))
            .filter(|((entry, _), _)| entry.kind == FileKind::Rust)
            .filter_map(|((_, meta), limit)| {
                meta.as_ref().map(|m| m.len()).filter(|len| len <= limit)
            })
            .sum()
    }
}

/// The texts of a unit's readable files, by kind.
struct ReadFiles<'a> {
    rust: Vec<(&'a FileEntry, Arc<String>)>,
    sql: Vec<(&'a FileEntry, Arc<String>)>,
    /// Content hashes (with a cache only), for its key and the stamp memo.
    hashes: HashMap<&'a str, u128>,
}

/// Reads every file; unreadable ones become IDEM000 findings or read
/// failures in `out`, readable ones its sources.
fn read_files<'a>(
    plan: &'a PlannedUnit,
    files: &StatFiles<'a>,
    cached: Option<Cached>,
    out: &mut UnitOutput,
) -> ReadFiles<'a> {
    let mut read = ReadFiles {
        rust: Vec::new(),
        sql: Vec::new(),
        hashes: HashMap::default(),
    };
    for ((entry, meta), &limit) in plan.unit.files.iter().zip(&files.metas).zip(&files.limits) {
        let stamp = cached.and(meta.as_ref()).map(Stamp::of);
        let text = match source::read_text(&entry.path, limit) {
            Ok(text) => text,
            Err(err @ ReadError::Io(_)) => {
                // Whether this fails the run depends on how the path was named.
                out.read_failures.push(WalkProblem {
                    display: entry.display.clone(),
                    message: err.to_string(),
                });
                continue;
            }
            Err(err) => {
                let (line, column) = err.position();
                let problem = file_problem(&entry.display, &err.to_string(), line, column);
                out.diagnostics.push(problem);
                continue;
            }
        };
        // "in N files" counts the files reported on, not their context.
        out.files += usize::from(!entry.context);
        if cached.is_some() {
            let hash = xxhash_rust::xxh3::xxh3_128(text.as_bytes());
            read.hashes.insert(entry.display.as_str(), hash);
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
            FileKind::Rust => read.rust.push((entry, text)),
            FileKind::Sql => read.sql.push((entry, text)),
        }
    }
    read
}

/// The unit's vocabulary with the names its files document as the client's
/// idempotency key added (`analysis::vocab::documented_key_names`); `None`
/// when they document none.
fn documented_vocab(
    vocab: &Vocabulary,
    rust: &[(&FileEntry, Arc<String>)],
    threads: usize,
) -> Option<Vocabulary> {
    let weights: Vec<usize> = rust.iter().map(|(_, text)| text.len()).collect();
    let per_file = crate::spread::map(&weights, threads, |f| {
        crate::analysis::vocab::documented_key_names(&rust[f].1, vocab)
    });
    let mut documented: Vec<String> = Vec::new();
    for names in per_file {
        for name in names {
            if !documented.contains(&name) {
                documented.push(name);
            }
        }
    }
    if documented.is_empty() {
        return None;
    }
    let names: Vec<String> = (documented.iter())
        .filter(|n| !vocab.is_client_key_name(n))
        .cloned()
        .collect();
    let mut extended = vocab.clone();
    extended.extend(&crate::analysis::vocab::VocabularyExtension {
        client_key: names,
        ..Default::default()
    });
    Some(extended.with_documented_keys(&documented))
}

/// The pre-filter a unit uses: the shared one, or its own when the unit's
/// crate configures its own vocabulary.
enum UnitPrefilter<'a> {
    None,
    Shared(&'a Prefilter),
    Own(Box<Prefilter>),
}

impl UnitPrefilter<'_> {
    fn get(&self) -> Option<&Prefilter> {
        match self {
            UnitPrefilter::None => None,
            UnitPrefilter::Shared(prefilter) => Some(prefilter),
            UnitPrefilter::Own(prefilter) => Some(prefilter),
        }
    }
}

fn unit_prefilter<'a>(
    shared: Option<&'a Prefilter>,
    vocab: &Vocabulary,
    options: &LintOptions,
) -> UnitPrefilter<'a> {
    match shared {
        Some(shared) if *vocab == options.vocab => UnitPrefilter::Shared(shared),
        Some(_) => UnitPrefilter::Own(Box::new(Prefilter::new(vocab))),
        None => UnitPrefilter::None,
    }
}

/// How the pre-filter plans each Rust file of a unit: whole without one.
fn file_plans(
    texts: &[(&FileEntry, Arc<String>)],
    planner: Option<&mut Planner<'_, '_>>,
    demand: &Demand,
) -> Vec<FilePlan> {
    let whole = FilePlan::Parse { blank: Vec::new() };
    let plans = match planner {
        Some(planner) => planner.plan(demand),
        None => vec![whole.clone(); texts.len()],
    };
    // A file with a suppression comment is parsed whole whatever the
    // filter says: whether that suppression is used depends on its
    // findings (IDEM000 too).
    (texts.iter().zip(plans))
        .map(|((_, text), plan)| {
            if text.contains("idem-lint:") {
                whole.clone()
            } else {
                plan
            }
        })
        .collect()
}

/// A unit over its limits: one IDEM000 at its first reported file says
/// that none of its files were analysed, and the run's exit code says so.
fn over_budget(plan: &PlannedUnit, exceeded: Exceeded, out: &mut UnitOutput) {
    let files = &plan.unit.files;
    let Some(first) = files.iter().find(|f| !f.context).or(files.first()) else {
        return;
    };
    let what = match &plan.unit.crate_root {
        Some(root) => format!("crate {}", crate::discover::display_path(root)),
        None => "this file".to_string(),
    };
    let message = format!(
        "{exceeded}; {what} ({} file{}) was not analysed",
        files.len(),
        if files.len() == 1 { "" } else { "s" }
    );
    out.diagnostics
        .push(file_problem(&first.display, &message, 1, 1));
    out.over_budget.push(first.display.clone());
}

/// The unit's SQL files, numbered after its `parsed` Rust files.
fn sql_files(parsed: &Parsed, sql_texts: &[(&FileEntry, Arc<String>)]) -> Vec<SqlFile> {
    (sql_texts.iter().enumerate())
        .map(|(n, (_, text))| SqlFile {
            id: (parsed.paths.len() + n) as u32,
            text: text.clone(),
        })
        .collect()
}

/// Analyses the flows of the parsed Rust files (`read`: the texts the test
/// hook reads). `Err(Some(..))`: over the unit's limits; `Err(None)`: the
/// analysis panicked (a bug).
fn analyse(
    vocab: &Vocabulary,
    parsed: &Parsed,
    read: &ReadFiles<'_>,
    (idempotency_context, scope_named): (bool, &[bool]),
    seeds: &Seeds,
) -> Result<analysis::UnitFacts, Option<Exceeded>> {
    #[cfg(not(feature = "test-hooks"))]
    let _ = read;
    let analysed = catch_unwind(AssertUnwindSafe(|| {
        #[cfg(feature = "test-hooks")]
        super::test_hooks::panic_if_marked(
            (parsed.texts.iter().map(|&n| read.rust[n].1.as_str()))
                .chain(read.sql.iter().map(|(_, text)| text.as_str())),
        );
        analysis::analyze_seeded_flows(&parsed.files, vocab, seeds)
    }));
    match analysed {
        Ok(mut facts) => {
            facts.without_idempotency_context = !idempotency_context;
            // `Site::file` numbers the parsed files; `texts` maps them back.
            facts.scope_files = (parsed.texts.iter().enumerate())
                .filter(|(_, &n)| scope_named.get(n).copied().unwrap_or(false))
                .map(|(id, _)| id as u32)
                .collect();
            Ok(facts)
        }
        Err(payload) => Err(limits::exceeded_in(payload.as_ref())),
    }
}

/// Adds the claims and the SQL DDL (IDEM008: SQL migrations are small and
/// always analysed) of the last round's files to its facts
/// ([`analysis::complete`]); errors as [`analyse`]'s.
fn complete(
    vocab: &Vocabulary,
    parsed: &Parsed,
    read: &ReadFiles<'_>,
    mut facts: analysis::UnitFacts,
) -> Result<analysis::UnitFacts, Option<Exceeded>> {
    let sql_files = sql_files(parsed, &read.sql);
    let completed = catch_unwind(AssertUnwindSafe(|| {
        analysis::complete(&mut facts, &parsed.files, &sql_files, vocab);
        facts
    }));
    completed.map_err(|payload| limits::exceeded_in(payload.as_ref()))
}

/// Runs every rule on the last round's facts; a panic becomes an IDEM000
/// finding on each of the unit's analysed files, and the unit's limits one
/// finding for the unit ([`over_budget`]).
fn report(
    plan: &PlannedUnit,
    vocab: &Vocabulary,
    mut parsed: Parsed,
    sql_texts: Vec<(&FileEntry, Arc<String>)>,
    facts: analysis::UnitFacts,
    out: &mut UnitOutput,
) {
    for (entry, _) in &sql_texts {
        parsed.paths.push(entry.display.clone());
    }
    out.key_calls = super::workspace::key_calls(&facts, &parsed.paths);
    let seeded = super::workspace::seeded_steps(&facts, &parsed.paths);
    let reported = catch_unwind(AssertUnwindSafe(|| {
        // Fixes read the original texts (the parsed ones may be blanked).
        let texts = (parsed.paths.iter())
            .map(|p| out.sources.get(p).map(|t| t.as_str()))
            .collect();
        let mut sink = Sink::new(&parsed.paths)
            .with_fixes(crate::fix::Locator::new(&parsed.files, texts).with_vocab(vocab))
            .with_scopes(file_scopes(plan, &parsed.paths));
        rules::run_all(&facts, &mut sink);
        sink.into_diagnostics()
    }));
    match reported {
        Ok(mut diagnostics) => {
            super::workspace::cross_into(&mut diagnostics, &seeded);
            out.diagnostics.extend(diagnostics)
        }
        Err(payload) => match limits::exceeded_in(payload.as_ref()) {
            Some(exceeded) => over_budget(plan, exceeded, out),
            None => internal_error(parsed.paths.iter(), out),
        },
    }
}

/// An IDEM000 "internal error" on each of `paths`: the unit's analysis
/// panicked (a bug).
fn internal_error<'p>(paths: impl Iterator<Item = &'p String>, out: &mut UnitOutput) {
    for path in paths {
        out.diagnostics.push(file_problem(
            path,
            "internal error while analysing this file (a bug in idem-lint; please report it)",
            1,
            1,
        ));
    }
}

/// The scope components each file's configuration says its service has,
/// for the files named `paths` (`[scope]` applies per file, like levels).
fn file_scopes(plan: &PlannedUnit, paths: &[String]) -> Vec<rules::ServiceScope> {
    let by_path: HashMap<&str, rules::ServiceScope> = (plan.unit.files.iter())
        .zip(&plan.files)
        .map(|(entry, settings)| (entry.display.as_str(), settings.scope()))
        .collect();
    (paths.iter())
        .map(|p| by_path.get(p.as_str()).copied().unwrap_or_default())
        .collect()
}

/// Stores a unit's fresh findings, unless a panic produced some: a panic
/// may depend on more than the inputs (the test hook does).
fn store(cached: Cached, key: crate::cache::Key, fresh: &[Diagnostic], calls: &[Seed]) {
    // A unit over its limits is analysed again next time: the limits or the
    // machine's load may differ.
    if !fresh.iter().any(|d| {
        d.message.starts_with("internal error") || d.message.starts_with("analysis budget exceeded")
    }) {
        cached.cache.store_unit(key, fresh, calls);
    }
}

/// What the pre-filter saved in one unit, printed with `IDEM_LINT_UNIT_STATS`.
struct UnitStats {
    rust_files: usize,
    chosen: usize,
    text_bytes: u64,
    parse_bytes: usize,
    /// Rounds of parse and analysis (`prefilter::Demand`).
    rounds: usize,
    /// Per round: files parsed, functions analysed, analysis time.
    per_round: Vec<(usize, usize, Duration)>,
    planned_in: Duration,
    /// Parsing, over all rounds.
    parsed_in: Duration,
    started: Instant,
}

impl UnitStats {
    /// Starts the clock of the parse and the analysis, with what the first
    /// round parses.
    fn start(
        plans: &[FilePlan],
        texts: &[(&FileEntry, Arc<String>)],
        text_bytes: u64,
        planned_in: Duration,
    ) -> UnitStats {
        let mut stats = UnitStats {
            rust_files: texts.len(),
            chosen: 0,
            text_bytes,
            parse_bytes: 0,
            rounds: 0,
            per_round: Vec::new(),
            planned_in,
            parsed_in: Duration::ZERO,
            started: Instant::now(),
        };
        stats.finish(plans, texts);
        stats
    }

    /// What one round analysed.
    fn round(&mut self, files: usize, functions: usize, took: Duration) {
        self.per_round.push((files, functions, took));
    }

    /// What the last round parsed.
    fn finish(&mut self, plans: &[FilePlan], texts: &[(&FileEntry, Arc<String>)]) {
        let parsed = || {
            (plans.iter().zip(texts)).filter_map(|(plan, (_, text))| match plan {
                FilePlan::Parse { blank } => Some((blank, text)),
                FilePlan::Skip => None,
            })
        };
        self.chosen = parsed().count();
        self.parse_bytes = parsed()
            .map(|(blank, text)| text.len() - blanked_len(blank).min(text.len()))
            .sum();
    }

    fn print(&self, plan: &PlannedUnit) {
        if std::env::var_os("IDEM_LINT_UNIT_STATS").is_none() {
            return;
        }
        let UnitStats {
            rust_files,
            chosen,
            text_bytes,
            parse_bytes,
            rounds,
            per_round,
            planned_in,
            parsed_in,
            started,
        } = self;
        let path = &plan.unit.files[0].display;
        // `bench/unit-stats.sh` reads this line.
        eprintln!(
            "[idem-lint unit] {path}: parsed {chosen}/{rust_files} files, {parse_bytes} of {text_bytes} bytes; plan {planned_in:?}, parse {parsed_in:?}, all {:?}",
            started.elapsed()
        );
        if *rounds > 1 {
            eprintln!("[idem-lint rounds] {path}: {rounds} rounds of plan and analysis");
            for (n, (files, functions, took)) in per_round.iter().enumerate() {
                eprintln!("[idem-lint rounds] round {}: {files} files, {functions} functions analysed in {took:?}", n + 1);
            }
        }
    }
}
