//! The shared analysis: computed once per unit, queried by every rule.
//!
//! For every function the evaluator ([`eval`]) computes which values carry
//! a client key, scope components, parameters, and which of them reach a key
//! position. Crate-local calls are resolved through function summaries,
//! iterated to a fixpoint ([`analyze`]). Claims ([`claims`], IDEM004) and
//! the key constraints of SQL DDL ([`sql`], IDEM008: `*.sql` files and DDL
//! in Rust string literals) are collected beside them, so that
//! [`UnitFacts`] is everything the rules read.

pub mod claims;
pub mod demand;
pub use demand::{DemandedCalls, TierCalls};
pub mod eval;
pub mod field_closures;
pub mod format_string;
pub mod hashing;
pub mod header_holders;
pub mod index;
pub mod key_event;
pub mod macro_rules;
pub mod mixing_fns;
pub mod order;
pub mod payload_sources;
pub mod sql;
pub mod sql_literals;
pub mod sql_source;
pub mod syntax;
pub mod test_support;
pub mod value;
pub mod vocab;
pub mod workspace_flow;

use eval::{Evaluator, KeyEvent, Summary};
use index::{CrateIndex, ParsedFile};
use std::collections::{HashMap, HashSet};

use crate::model::diagnostic::Confidence;

use vocab::Vocabulary;

/// Summaries stop being refined after this many sweeps (recursion terminates).
const MAX_ROUNDS: usize = 6;

/// A summary resting on a chain of more summaries than this is not passed
/// on to callers: the longest flow path, in functions crossed.
const MAX_DEPTH: usize = 6;

/// What the rules query.
#[derive(Debug, Default)]
pub struct UnitFacts {
    /// Every value that reached a key position, deduplicated.
    pub key_events: Vec<KeyEvent>,
    /// Uniqueness constraints of idempotency tables in SQL DDL.
    pub sql: sql::SqlFacts,
    /// Claims left in progress by an early exit before their completion (IDEM004).
    pub claims: Vec<claims::ClaimFinding>,
    /// Nothing in the unit's texts is about idempotency (see
    /// [`Vocabulary::has_idempotency_context`]): payload hashes there are
    /// content hashing, not keys. Set by the caller, which has the texts.
    pub without_idempotency_context: bool,
    /// The analysed files whose code names both a tenant and a principal
    /// ([`Vocabulary::names_scope`]), by `Site::file`: without idempotency
    /// context, a payload hash keyed there beside both and an operation is
    /// still an idempotency key (IDEM003). Set by the caller, which has
    /// the texts.
    pub scope_files: Vec<u32>,
    /// Every analysed function and what it gives the pre-filter's next
    /// round (`prefilter::Demand`).
    pub functions: Vec<AnalysedFn>,
    /// The stores client keys are written to (`KeyEvent::writes_client_key`):
    /// where the pre-filter's next round looks for server-minted keys.
    pub client_stores: Vec<String>,
    /// The fields and variants given the key header's name: the
    /// pre-filter's next round keys their users.
    pub header_holders: Vec<String>,
    /// The records whose fields carry a client key by flow
    /// (`eval::FieldKeys`): the pre-filter's next round keys their users.
    pub key_records: Vec<String>,
    /// Functions returning a scoped key or the client's key by flow
    /// (`fn key_for(..) -> Option<ScopedKey>`): a claim on what they
    /// return is on an idempotency key (`claims::analyze`).
    pub key_makers: Vec<String>,
    /// Calls the analysis could not resolve that it needs: the
    /// pre-filter's next round analyses the crate-local functions they name.
    pub demanded_calls: demand::DemandedCalls,
    /// Calls into other crates given the client's key by flow: the
    /// parameters they land on are sources there (`workspace_flow`).
    pub key_calls: Vec<workspace_flow::KeyCallSite>,
    /// The parameters other crates' calls made sources here, with those
    /// calls: where a finding's path crosses into this unit.
    pub seeded_params: Vec<(value::Site, Vec<workspace_flow::Seed>)>,
}

/// One analysed function, and what it gives the pre-filter's next round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysedFn {
    /// The parsed file it is in.
    pub file: u32,
    /// Its name.
    pub name: String,
    /// What its analysis tells the pre-filter of a run showing `possible`
    /// findings.
    pub exports: FnExports,
    /// What it tells the pre-filter of a run showing only `certain` ones.
    pub certain_exports: FnExports,
}

impl AnalysedFn {
    /// What its analysis tells the pre-filter of a run whose least
    /// confident findings shown are `tier`.
    pub fn exports_at(&self, tier: Confidence) -> FnExports {
        match tier {
            Confidence::Certain => self.certain_exports,
            Confidence::Possible => self.exports,
        }
    }
}

/// What the analysis of a function tells the pre-filter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FnExports {
    /// Its callers' analysis depends on it ([`Summary::reaches_callers`]).
    pub callers: bool,
    /// It writes client keys to a store (`KeyEvent::writes_client_key`).
    pub writes_client_keys: bool,
    /// It digests a parameter ([`Summary::digests_params`]): a caller that
    /// passes it the request payload makes a payload hash there.
    pub payload_callers: bool,
}

impl FnExports {
    /// What either says.
    pub fn union(self, other: FnExports) -> FnExports {
        FnExports {
            callers: self.callers || other.callers,
            writes_client_keys: self.writes_client_keys || other.writes_client_keys,
            payload_callers: self.payload_callers || other.payload_callers,
        }
    }
}

impl UnitFacts {
    /// Key events whose value carries a client key that counts there, with
    /// that key's origin. A request id counts only in an idempotency store.
    pub fn client_key_events(
        &self,
    ) -> impl Iterator<Item = (&KeyEvent, &value::Origin, value::KeySource)> {
        self.key_events.iter().filter_map(|event| {
            let (origin, source) = event.client_key()?;
            Some((event, origin, source))
        })
    }

    /// Key events whose components defaults and sanitisers are judged in
    /// (IDEM005, IDEM006): the [`Self::scope_events`], and keys made of a
    /// payload's hash in a unit about idempotency (the tenant beside a body
    /// hash is as much the key's scope as beside a client key). A payload
    /// known only by its name does not make one.
    pub fn component_events(&self) -> impl Iterator<Item = &KeyEvent> {
        let hashed = !self.without_idempotency_context;
        let component = move |event: &&KeyEvent| {
            let payload_key = (event.value.payload_hash.as_ref())
                .is_some_and(|hash| hashed && !hash.payload.by_name);
            // A key built by `scoped(..)` stays one under a prefix
            // (`format!("idem/{}", sk.storage_key())`): its components too.
            self.is_scope_event(event) || payload_key || event.value.client_ns
        };
        // Where a key is stored first, then where it is only built
        // (`scoped(..)` itself): a finding reported at both keeps the path
        // that reaches storage.
        let built_only = |event: &&KeyEvent| {
            (event.value.construct).is_some_and(|c| c.site == event.site && event.store.is_none())
        };
        let stored = self
            .key_events
            .iter()
            .filter(component)
            .filter(move |e| !built_only(e));
        let built = self.key_events.iter().filter(component).filter(built_only);
        stored.chain(built)
    }

    /// Key events whose value is a key for scope checks: a scoped key, or a
    /// value carrying a client key that counts there.
    pub fn scope_events(&self) -> impl Iterator<Item = &KeyEvent> {
        self.key_events
            .iter()
            .filter(|event| self.is_scope_event(event))
    }

    /// See [`Self::scope_events`].
    fn is_scope_event(&self, event: &KeyEvent) -> bool {
        // A request id that does not count makes the value no key at all.
        let key_counts = event.client_key().is_some();
        let off_store_request_id = event.value.client_key.is_some() && !key_counts;
        (event.value.scoped || key_counts) && !off_store_request_id
    }
}

/// Analyses all files of one unit together: its Rust files and its SQL
/// files (numbered after the Rust files, as in [`sql::SqlFile::id`]).
pub fn analyze(files: &[ParsedFile], sql_files: &[sql::SqlFile], vocab: &Vocabulary) -> UnitFacts {
    let mut facts = analyze_flows(files, vocab);
    complete(&mut facts, files, sql_files, vocab);
    facts
}

/// The flows of a unit's Rust files: key events, and what the pre-filter's
/// next round learns. Claims and SQL DDL are left out: a round whose plan
/// grows is analysed again, and only the last round's are reported
/// ([`complete`] adds them).
pub fn analyze_flows(files: &[ParsedFile], vocab: &Vocabulary) -> UnitFacts {
    analyze_seeded_flows(files, vocab, &workspace_flow::Seeds::default())
}

/// [`analyze_flows`] of a unit whose parameters `seeds` says other crates'
/// callers give the client's key.
pub fn analyze_seeded_flows(
    files: &[ParsedFile],
    vocab: &Vocabulary,
    seeds: &workspace_flow::Seeds,
) -> UnitFacts {
    // `files` is borrowed until this returns: macro addresses stay unique.
    let _macro_args = syntax::MacroArgsMemo::start();
    let index = CrateIndex::build(files);
    let no_names = vec![0u64; index.fns.len()];
    let seeded = seeds.masks(&index);
    // Both fixpoints evaluate in the same order: it is read off the
    // syntax once (macro bodies included, which costs).
    let order = order::callee_first(&index);
    let (summaries, mut fn_events) = fixpoint(&index, vocab, &order, (&no_names, &seeded), None);
    // Key-named parameters that every crate-local caller feeds a
    // server-built value: once more with their names saying nothing.
    let unnamed = eval::server_fed_params(&summaries);
    let mut renamed = Vec::new();
    if unnamed.iter().any(|m| *m != 0) {
        let warm = (summaries.clone(), fn_events);
        (renamed, fn_events) = fixpoint(&index, vocab, &order, (&unnamed, &seeded), Some(warm));
    }
    // Functions writing client keys: the stores they name are where the
    // pre-filter's next round looks for server-minted keys.
    let writes: Vec<bool> = (fn_events.iter())
        .map(|events| events.iter().any(KeyEvent::writes_client_key))
        .collect();
    let client_stores: HashSet<String> = (fn_events.iter().flatten())
        .filter(|event| event.writes_client_key())
        .filter_map(|event| event.store.clone())
        .collect();
    let demanded_calls = demand::demanded_calls(&fn_events, &summaries, &renamed, &client_stores);
    // Only keys: a reader of a defaulted or stripped field matters where
    // it builds a key, which keys it on its own; keying every user of a
    // record some constructor defaults made a monolith 10x slower.
    let mut key_records: Vec<String> = (eval::field_keys(&summaries).into_iter())
        .filter(|(_, facts)| facts.key.is_some())
        .map(|((record, _), _)| record)
        .collect();
    key_records.sort_unstable();
    key_records.dedup();
    // The claim walk links a call by its name alone, so a name counts only
    // where every function of that name returns a key (not `new`).
    let last = if renamed.is_empty() {
        &summaries
    } else {
        &renamed
    };
    let makes_key = |s: &Summary| {
        let by_flow = (s.ret.client_key.as_ref())
            .is_some_and(|(_, source)| source.confidence() == Confidence::Certain);
        (s.ret.scoped || by_flow) && !s.ret.key_by_name
    };
    let mut key_makers: Vec<String> = (index.fns_by_name.iter())
        .filter(|(_, ids)| ids.iter().all(|&id| last.get(id).is_some_and(makes_key)))
        .map(|(name, _)| name.clone())
        .collect();
    key_makers.sort_unstable();
    let mut key_calls: Vec<workspace_flow::KeyCallSite> = (last.iter())
        .flat_map(|s| s.key_calls.iter().cloned())
        .collect();
    key_calls.dedup();
    let events: Vec<KeyEvent> = fn_events.into_iter().flatten().collect();
    let unique = dedup_events(events);
    let client_stores: HashSet<&str> = client_stores.iter().map(String::as_str).collect();
    let exports = |id: usize, tier| FnExports {
        writes_client_keys: writes[id],
        callers: [&summaries, &renamed]
            .iter()
            .any(|s| (s.get(id)).is_some_and(|s| s.reaches_callers(&client_stores, tier))),
        payload_callers: [&summaries, &renamed]
            .iter()
            .any(|s| (s.get(id)).is_some_and(Summary::digests_params)),
    };
    let functions = (index.fns.iter().enumerate())
        .map(|(id, def)| AnalysedFn {
            file: def.file,
            name: def.name.clone(),
            exports: exports(id, Confidence::Possible),
            certain_exports: exports(id, Confidence::Certain),
        })
        .collect();
    let client_stores = client_stores.into_iter().map(String::from).collect();
    if std::env::var_os("IDEM_LINT_DEBUG").is_some() {
        for e in &unique {
            eprintln!(
                "[idem-lint debug] event at {:?} (store {:?}, raw_ok {}): {:#?}",
                e.site, e.store, e.raw_ok, e.value
            );
        }
    }
    UnitFacts {
        key_events: unique,
        claims: Vec::new(),
        sql: sql::SqlFacts::default(),
        without_idempotency_context: false,
        scope_files: Vec::new(),
        functions,
        client_stores,
        header_holders: index.header_holders.names(vocab, &index.consts),
        key_records,
        key_makers,
        demanded_calls,
        key_calls,
        seeded_params: seeds.param_sites(&index),
    }
}

/// Adds the claims (IDEM004) and the SQL DDL (IDEM008) of the files whose
/// flows `facts` holds, and whether each claim is on a key by flow.
pub fn complete(
    facts: &mut UnitFacts,
    files: &[ParsedFile],
    sql_files: &[sql::SqlFile],
    vocab: &Vocabulary,
) {
    let _macro_args = syntax::MacroArgsMemo::start();
    let index = CrateIndex::build(files);
    let key_makers: HashSet<String> = facts.key_makers.iter().cloned().collect();
    let mut claims = claims::analyze(&index, vocab, key_makers);
    for claim in &mut claims {
        // The completion is of the same key (the walk links them by it):
        // a key that reaches storage by flow there is the claim's too
        // (`etcd.lock(key.storage_key(), ..)` .. `etcd.put(key.storage_key(), ..)`).
        let at = |site: value::Site, event: &KeyEvent| {
            site.covers(event.site) || event.site.covers(site)
        };
        claim.by_flow |= facts.key_events.iter().any(|event| {
            (event.value.scoped || event.client_key().is_some())
                && event.confidence() == crate::model::diagnostic::Confidence::Certain
                && (at(claim.claim, event) || at(claim.completion, event))
        });
    }
    facts.claims = claims;
    facts.sql = sql::collect(files, sql_files, vocab);
}

/// Evaluates every function, iterating the summaries to a fixpoint in
/// place, in `order` (callees first, [`order::callee_first`]); `unnamed[id]` are the parameters of function `id` whose names say
/// nothing, `seeded[id]` those other crates give the client's key
/// ([`workspace_flow::Seeds`]). Returns the summaries and each function's
/// key events.
///
/// `warm`: the summaries and events of a fixpoint with every parameter
/// named, to start from when only the functions of `unnamed` parameters
/// differ: those are evaluated again, and the rest only once what they read
/// (a callee's summary, a record's fields) changes. A unit where a few
/// helpers' parameters lose their names is not evaluated twice over.
pub(crate) fn fixpoint(
    index: &CrateIndex<'_>,
    vocab: &Vocabulary,
    order: &[usize],
    (unnamed, seeded): (&[u64], &[u64]),
    warm: Option<(Vec<Summary>, Vec<Vec<KeyEvent>>)>,
) -> (Vec<Summary>, Vec<Vec<KeyEvent>>) {
    let n = index.fns.len();
    // The first sweep evaluates every function (of `unnamed`, when warm);
    // later sweeps only those that read a callee's summary before it changed.
    let (mut summaries, mut fn_events, mut dirty, mut field_keys) = match warm {
        Some((summaries, events)) if summaries.len() == n && events.len() == n => {
            let dirty = (0..n).map(|id| unnamed.get(id).is_some_and(|m| *m != 0));
            let keys = eval::field_keys(&summaries);
            (summaries, events, dirty.collect(), keys)
        }
        _ => (
            vec![Summary::default(); n],
            vec![Vec::new(); n],
            vec![true; n],
            eval::FieldKeys::new(),
        ),
    };
    // Each evaluation reads the summaries as they are at that moment
    // (callees first, so most are final): a step counter says whether a
    // callee changed after its caller read it.
    let mut step = 0usize;
    let mut read_at = vec![0usize; n];
    let mut changed_at = vec![0usize; n];
    // How many summaries, this one included, a summary rests on. One that
    // rests on more than MAX_DEPTH is kept aside (`deep`) and its callers
    // read an empty one: a flow path crosses at most MAX_DEPTH functions,
    // whatever order they are evaluated in.
    let blank = Summary::default();
    let mut depth = vec![0usize; n];
    let mut deep: HashMap<usize, Summary> = HashMap::new();
    for _sweep in 0..MAX_ROUNDS {
        // The progress bar counts evaluations: a huge unit shows movement.
        crate::progress::functions_planned(dirty.iter().filter(|d| **d).count());
        for &id in order {
            if !dirty[id] {
                continue;
            }
            crate::limits::checkpoint();
            crate::progress::function_done();
            let def = &index.fns[id];
            let evaluator = Evaluator::new(index, vocab, &summaries, def)
                .without_names_for(unnamed.get(id).copied().unwrap_or(0))
                .with_seeded_params(seeded.get(id).copied().unwrap_or(0))
                .with_field_keys(&field_keys);
            let (mut summary, events) = evaluator.run(def);
            bound_summary(&mut summary);
            step += 1;
            read_at[id] = step;
            depth[id] = if same_for_callers(&summary, &blank) {
                0
            } else {
                let below = (summary.callees.iter())
                    .filter(|&&c| c != id && !deep.contains_key(&c))
                    .map(|&c| depth[c])
                    .max();
                1 + below.unwrap_or(0)
            };
            let visible = if depth[id] > MAX_DEPTH {
                deep.insert(id, summary);
                blank.clone()
            } else {
                deep.remove(&id);
                summary
            };
            if !same_for_callers(&visible, &summaries[id]) {
                step += 1;
                changed_at[id] = step;
            }
            summaries[id] = visible;
            fn_events[id] = events;
        }
        // A record whose fields now carry other keys is read again where
        // it is destructured.
        let keys = eval::field_keys(&summaries);
        let records = eval::changed_records(&field_keys, &keys);
        field_keys = keys;
        dirty = (0..n)
            .map(|id| {
                let s = deep.get(&id).unwrap_or(&summaries[id]);
                (s.callees.iter()).any(|&c| changed_at.get(c).is_some_and(|&at| at > read_at[id]))
                    || s.field_reads.iter().any(|r| records.contains(r))
            })
            .collect();
        if !dirty.iter().any(|d| *d) {
            break;
        }
    }
    for (id, summary) in deep {
        summaries[id] = summary;
    }
    (summaries, fn_events)
}

/// Levels of tuple elements and struct fields a summary's values keep, and
/// how many parts in all ([`value::Value::bound_shape`]): keys are found a
/// few levels deep (`Ok(Some((tenant, key)))`, a request struct in a
/// tuple), and what lies deeper is kept as facts without its shape.
const MAX_SHAPE_DEPTH: usize = 4;
const MAX_SHAPE_NODES: usize = 64;

/// Whether callers can tell `a` from `b`. The unresolved calls a value
/// passes on are no part of its signature, but callers pass them on too
/// (`prefilter::Demand`).
fn same_for_callers(a: &Summary, b: &Summary) -> bool {
    let facts = |s: &Summary| {
        let via = |v: &value::Value| v.via.calls().count();
        let pending: usize = s.pending.iter().map(|e| via(&e.value)).sum();
        (
            s.ret.fallbacks.len(),
            s.ret.sanitized.len(),
            via(&s.ret),
            pending,
            s.param_field_writes.len(),
        )
    };
    a.signature() == b.signature() && facts(a) == facts(b)
}

/// Bounds the shape of what callers receive from a summary.
fn bound_summary(summary: &mut Summary) {
    summary.ret.bound_shape(MAX_SHAPE_DEPTH, MAX_SHAPE_NODES);
    for event in &mut summary.pending {
        event.value.bound_shape(MAX_SHAPE_DEPTH, MAX_SHAPE_NODES);
    }
    for (_, value) in &mut summary.absorbs {
        value.bound_shape(MAX_SHAPE_DEPTH, MAX_SHAPE_NODES);
    }
}

/// `events` without repeats, first occurrence kept, in order. Equal events
/// have equal sites, so each event is compared only with the earlier ones at
/// its site: linear in the number of events where `Vec::contains` over all
/// earlier ones was quadratic (`Value` has no `Hash`).
fn dedup_events(events: Vec<KeyEvent>) -> Vec<KeyEvent> {
    let mut at_site: std::collections::HashMap<value::Site, Vec<usize>> =
        std::collections::HashMap::new();
    let mut unique: Vec<KeyEvent> = Vec::with_capacity(events.len());
    for event in events {
        let earlier = at_site.entry(event.site).or_default();
        if !earlier.iter().any(|&i| unique[i] == event) {
            earlier.push(unique.len());
            unique.push(event);
        }
    }
    unique
}
