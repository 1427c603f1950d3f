//! Flow between the crates of one run (`analysis::workspace_flow`): which
//! unit's calls seed which unit's parameters. A crate's calls reach only the
//! crates its manifest depends on (`discover::dependencies`).

use std::collections::BTreeSet;

use crate::analysis::workspace_flow::{Seed, Seeds};
use crate::analysis::UnitFacts;
use crate::config::PlannedUnit;
use crate::discover::dependencies;
use crate::model::diagnostic::TraceStep;
use crate::model::{Diagnostic, Span};

/// The package name and dependency names of each unit's manifest (`-` and
/// `_` the same); `None` for a unit with no crate or no readable manifest.
pub(super) struct Manifests(Vec<Option<(String, BTreeSet<String>)>>);

impl Manifests {
    /// Reads the manifest of each unit of `planned`.
    pub(super) fn read(planned: &[PlannedUnit]) -> Manifests {
        Manifests(
            (planned.iter())
                .map(|plan| (plan.unit.crate_root.as_deref()).and_then(dependencies::package_of))
                .collect(),
        )
    }

    /// Per unit, the calls of the other units into it (`calls[n]`: unit
    /// `n`'s), ordered and without repeats, so a unit's cache key is
    /// stable.
    pub(super) fn seeds(&self, calls: &[Vec<Seed>]) -> Vec<Seeds> {
        let mut seeds: Vec<BTreeSet<SeedKey>> = vec![BTreeSet::new(); self.0.len()];
        for (from, made) in calls.iter().enumerate() {
            let Some(Some((_, deps))) = self.0.get(from) else {
                continue;
            };
            if made.is_empty() {
                continue;
            }
            for (to, manifest) in self.0.iter().enumerate() {
                let Some((name, _)) = manifest else {
                    continue;
                };
                if to != from && deps.contains(name) {
                    seeds[to].extend(made.iter().cloned().map(SeedKey));
                }
            }
        }
        (seeds.into_iter())
            .map(|set| Seeds(set.into_iter().map(|key| key.0).collect()))
            .collect()
    }
}

/// A [`Seed`] ordered by where its call is made, then by the call.
#[derive(Clone, PartialEq, Eq)]
struct SeedKey(Seed);

impl Ord for SeedKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let key = |s: &Seed| {
            (
                s.path.clone(),
                s.span.start.line,
                s.span.start.column,
                s.call.clone(),
            )
        };
        key(&self.0).cmp(&key(&other.0))
    }
}

impl PartialOrd for SeedKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The unit's calls into other crates given the client's key, where they
/// are made (`paths`: the display paths of the parsed files).
pub(super) fn key_calls(facts: &UnitFacts, paths: &[String]) -> Vec<Seed> {
    let mut calls: Vec<Seed> = (facts.key_calls.iter())
        .filter_map(|call| {
            Some(Seed {
                call: call.call.clone(),
                path: paths.get(call.site.file as usize)?.clone(),
                span: call.site.span,
            })
        })
        .collect();
    calls.dedup();
    calls
}

/// Where a seeded parameter is, and the calls that seed it.
pub(super) struct SeededStep {
    path: String,
    span: Span,
    seeds: Vec<Seed>,
}

/// The unit's seeded parameters (`paths` as in [`key_calls`]).
pub(super) fn seeded_steps(facts: &UnitFacts, paths: &[String]) -> Vec<SeededStep> {
    (facts.seeded_params.iter())
        .filter_map(|(site, seeds)| {
            Some(SeededStep {
                path: paths.get(site.file as usize)?.clone(),
                span: site.span,
                seeds: seeds.clone(),
            })
        })
        .collect()
}

/// Starts the path of each finding that goes through a seeded parameter
/// at the other crate's call that gives it the key.
pub(super) fn cross_into(diagnostics: &mut [Diagnostic], seeded: &[SeededStep]) {
    if seeded.is_empty() {
        return;
    }
    for diagnostic in diagnostics {
        let found = diagnostic.trace.iter().enumerate().find_map(|(at, step)| {
            let param = (seeded.iter()).find(|s| s.path == step.path && s.span == step.span)?;
            Some((at, param))
        });
        let Some((at, param)) = found else {
            continue;
        };
        let calls = (param.seeds.iter()).map(|seed| TraceStep {
            path: seed.path.clone(),
            span: seed.span,
            message: format!(
                "the client's key is passed to `{}` here, in another crate",
                seed.call.callee
            ),
        });
        // One call is the path; more only repeat it.
        let first: Vec<TraceStep> = calls.take(1).collect();
        diagnostic.trace.splice(at..at, first);
    }
}
