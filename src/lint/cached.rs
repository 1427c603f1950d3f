//! The result cache as one unit sees it: the unit's key, and a warm run's
//! replay of an unchanged unit without reading most of its files.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::cache::{self, Cache, Memo, Stamp};
use crate::config::PlannedUnit;
use crate::discover::FileEntry;
use crate::source;

use super::options::LintOptions;
use super::output::UnitOutput;

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
/// limit and content hash (`None`: unreadable).
pub(super) fn unit_key(
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
pub(super) fn path_key(entry: &FileEntry) -> String {
    entry.path.to_string_lossy().into_owned()
}

/// A warm run's shortcut: when every file of the unit has the stamp the
/// memo remembers (so its contents hash as remembered) and the cache holds
/// the unit's result, that result is replayed, reading only the files it
/// reports on or that carry a suppression comment. `None`: run the unit.
pub(super) fn replay_unchanged(
    plan: &PlannedUnit,
    options: &LintOptions,
    cached: Cached,
) -> Option<UnitOutput> {
    let mut remembered = BTreeMap::new();
    for (entry, settings) in plan.unit.files.iter().zip(&plan.files) {
        let limit = options.file_size_limit(settings);
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
