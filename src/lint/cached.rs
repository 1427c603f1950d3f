//! The result cache in a run: opened once per run ([`RunCache`]), seen by
//! each unit as [`Cached`] (the unit's key, and a warm run's replay of an
//! unchanged unit without reading most of its files).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

// Keys are the user's own settings: no HashDoS to defend against.
use rustc_hash::FxHashMap as HashMap;

use crate::analysis::workspace_flow::Seeds;
use crate::cache::{self, Cache, Memo, Stamp};
use crate::config::PlannedUnit;
use crate::discover::FileEntry;
use crate::model::diagnostic::Confidence;
use crate::source;

use super::options::LintOptions;
use super::output::UnitOutput;

/// The result cache for a whole run.
pub(super) struct RunCache {
    cache: Cache,
    memo: Memo,
    /// Hash of the options that can change findings.
    config: u128,
    /// Each distinct configuration's part of the key (by the address of its
    /// shared settings), hashed once, not per unit.
    settings: HashMap<usize, u128>,
}

impl RunCache {
    /// Opens the cache of `options.cache_dir` (`None`: no cache).
    pub fn open(options: &LintOptions, planned: &[PlannedUnit]) -> Option<RunCache> {
        let cache = Cache::open(options.cache_dir.as_deref()?)?;
        // Everything that can change a unit's findings, by its `Debug` form
        // so that new options are covered by default. Filters applied after
        // the analysis (select, ignore, exclude, confidence) and `jobs` are
        // left out.
        let normalized = LintOptions {
            jobs: 0,
            select: Vec::new(),
            ignore: Vec::new(),
            exclude: Vec::new(),
            cache_dir: None,
            progress: None,
            confidence: Default::default(),
            confidence_fixed: false,
            ..options.clone()
        };
        let config = cache::config_hash(&format!("{normalized:?}"));
        let memo = cache.load_memo();
        let mut settings: HashMap<usize, u128> = HashMap::default();
        for plan in planned {
            settings
                .entry(Arc::as_ptr(&plan.settings) as usize)
                .or_insert_with(|| cache::config_hash(&format!("{:?}", plan.settings)));
        }
        Some(RunCache {
            cache,
            memo,
            config,
            settings,
        })
    }

    /// The cache as the unit `plan` sees it.
    pub fn for_unit(&self, plan: &PlannedUnit) -> Cached<'_> {
        let settings = self
            .settings
            .get(&(Arc::as_ptr(&plan.settings) as usize))
            .copied()
            .unwrap_or_else(|| cache::config_hash(&format!("{:?}", plan.settings)));
        Cached {
            cache: &self.cache,
            memo: &self.memo,
            config: self.config,
            settings,
        }
    }

    /// Remembers the stamps of the files read this run (taking them from
    /// `outputs`), for the next run's replay.
    pub fn store_memo(self, outputs: &mut [UnitOutput]) {
        let stamps = outputs
            .iter_mut()
            .flat_map(|o| std::mem::take(&mut o.stamps));
        self.cache.store_memo(self.memo, stamps.collect());
    }
}

/// The result cache as one unit sees it.
#[derive(Clone, Copy)]
pub(super) struct Cached<'a> {
    pub cache: &'a Cache,
    pub memo: &'a Memo,
    /// Hash of the options that can change findings.
    pub config: u128,
    /// Hash of the unit's own configuration.
    pub settings: u128,
}

/// A unit's cache key: the configuration, and per file its path, size
/// limit, service scope and content hash (`None`: unreadable).
pub(super) fn unit_key(
    plan: &PlannedUnit,
    cached: Cached,
    (confidence, seeds): (Confidence, &Seeds),
    hash_of: impl Fn(&FileEntry) -> Option<u128>,
) -> cache::Key {
    let mut key = cache::KeyBuilder::new(cached.config);
    key.add(&cached.settings.to_le_bytes());
    // Other crates' calls make parameters sources (`workspace_flow`).
    for seed in &seeds.0 {
        if let Ok(bytes) = serde_json::to_vec(seed) {
            key.add(&bytes);
        }
    }
    // A unit shown only `certain` findings follows fewer calls, so its
    // `possible` findings are not complete (`analysis::DemandedCalls`).
    key.add(&[u8::from(confidence == Confidence::Certain)]);
    for (entry, settings) in plan.unit.files.iter().zip(&plan.files) {
        key.add(entry.display.as_bytes());
        match settings.max_file_size() {
            Some(limit) => key.add(&limit.to_le_bytes()),
            None => key.add(b"\0unlimited"),
        }
        let scope = settings.scope();
        key.add(&[u8::from(scope.tenant), u8::from(scope.principal)]);
        match hash_of(entry) {
            Some(hash) => key.add(&hash.to_le_bytes()),
            None => key.add(b"\0unreadable"),
        }
    }
    key.finish()
}

/// How the stamp memo names a file.
pub(super) fn path_key(entry: &FileEntry) -> String {
    entry.path.to_string_lossy().into_owned()
}

/// A warm run's shortcut: when every file of the unit has the stamp the
/// memo remembers (so its contents hash as remembered) and the cache holds
/// the unit's result, that result is replayed, reading only the files it
/// reports on or that carry a suppression comment; `metas` are the files'
/// metadata, stated before the run started. `None`: run the unit.
pub(super) fn replay_unchanged(
    plan: &PlannedUnit,
    (metas, seeds): (&[Option<std::fs::Metadata>], &Seeds),
    options: &LintOptions,
    cached: Cached,
) -> Option<UnitOutput> {
    let mut remembered = BTreeMap::new();
    for ((entry, settings), meta) in plan.unit.files.iter().zip(&plan.files).zip(metas) {
        let limit = options.file_size_limit(settings);
        let meta = meta.as_ref()?;
        if !meta.is_file() || meta.len() > limit {
            return None;
        }
        let known = cached.memo.get(&path_key(entry), &Stamp::of(meta))?;
        remembered.insert(entry.display.as_str(), (entry, known, limit));
    }
    let key = unit_key(
        plan,
        cached,
        (options.unit_confidence(plan), seeds),
        |entry| {
            remembered
                .get(entry.display.as_str())
                .map(|(_, r, _)| r.hash)
        },
    );
    let (diagnostics, key_calls) = cached.cache.load_unit(key)?;
    let mut out = UnitOutput {
        key_calls,
        // As a fresh run counts: the files reported on, not their context.
        files: plan.unit.files.iter().filter(|f| !f.context).count(),
        diagnostics,
        ..UnitOutput::default()
    };
    let reported: BTreeSet<&str> = out.diagnostics.iter().map(|d| d.path.as_str()).collect();
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
    out.retain_used_sources();
    Some(out)
}
