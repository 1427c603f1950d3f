//! What a round of the analysis asks of the pre-filter's next round
//! (`prefilter::Demand`): the calls it could not resolve whose callees it
//! needs. A call is needed where its result reaches a key position that
//! may make a finding, or where it is given a value that may carry a fact
//! into the callee. Every other call of an analysed function is left
//! unresolved: its callee cannot change a finding, and is never analysed.
//! A call is demanded where it is made (`CallSite`: the calling function
//! and the name called), not by its name alone: in a large service, names
//! such as `get` or `new` are called everywhere, and following them from
//! every caller brings in most of the crate.
//!
//! A run that reports only `certain` findings needs less: a client key
//! known only by its name makes `possible` findings wherever it flows, so
//! the calls it reaches are demanded only where `possible` ones are shown.

use std::collections::HashSet;

use super::eval::{KeyEvent, Summary};
pub use super::value::CallSite;
use crate::model::diagnostic::Confidence;

/// The calls each confidence tier demands (`certain` is a subset).
#[derive(Debug, Clone, Default)]
pub struct DemandedCalls {
    /// For a run that shows `possible` findings.
    pub possible: TierCalls,
    /// For a run that shows only `certain` findings.
    pub certain: TierCalls,
}

/// The calls one tier demands, where each is made.
#[derive(Debug, Clone, Default)]
pub struct TierCalls {
    /// Followed to every function they may resolve to: calls whose result
    /// reaches a key position that may make a finding, or that are given a
    /// value that may carry a fact.
    pub calls: Vec<CallSite>,
    /// Given only what counts at an idempotency store (a request id, SQL
    /// text): followed only to functions that may reach one.
    pub toward_stores: Vec<CallSite>,
}

impl DemandedCalls {
    /// The calls a run whose least confident finding shown is `tier` needs.
    pub fn at(&self, tier: Confidence) -> &TierCalls {
        match tier {
            Confidence::Certain => &self.certain,
            Confidence::Possible => &self.possible,
        }
    }
}

/// The unresolved calls the next round analyses, per tier. `fn_events`
/// and `summaries` are per function of the index; `renamed` are the
/// summaries of the second fixpoint, if there was one.
pub fn demanded_calls(
    fn_events: &[Vec<KeyEvent>],
    summaries: &[Summary],
    renamed: &[Summary],
    client_stores: &HashSet<String>,
) -> DemandedCalls {
    let at = |tier| demanded_at(fn_events, summaries, renamed, client_stores, tier);
    DemandedCalls {
        possible: at(Confidence::Possible),
        certain: at(Confidence::Certain),
    }
}

/// The calls demanded where findings down to `tier` are shown.
fn demanded_at(
    fn_events: &[Vec<KeyEvent>],
    summaries: &[Summary],
    renamed: &[Summary],
    client_stores: &HashSet<String>,
    tier: Confidence,
) -> TierCalls {
    let carrying = fact_params(&[summaries, renamed], tier);
    let params_of = |id: usize| carrying.get(id).copied().unwrap_or_default();
    let mut calls: HashSet<&CallSite> = HashSet::new();
    let mut toward_stores: HashSet<&CallSite> = HashSet::new();
    // The store test stays for every tier: a server-minted key beside
    // client keys (IDEM007) is `certain` whatever named the client keys.
    // What counts only at an idempotency store (a request id, SQL text)
    // needs a call's result only there.
    // A digest of a parameter counts where a caller passes it a fact or
    // the payload (a payload hash).
    let needed = |event: &KeyEvent, carried: ParamFacts| {
        let params = event.value.params | event.value.hashed_params;
        event.starts_findings_at(tier)
            || params & carried.facts != 0
            || event.value.hashed_params & carried.payload != 0
            || (event.store.as_ref()).is_some_and(|s| client_stores.contains(s))
            || (event.strong && params & carried.at_stores != 0)
            // A digest at a store of what an unresolved call gave (`seahash::
            // hash(&read_body(req).await)`): the callee may hand the payload.
            || (event.raw_ok && event.value.digest.is_some() && event.value.payload_hash.is_none())
    };
    for (id, events) in fn_events.iter().enumerate() {
        for event in events.iter().filter(|e| needed(e, params_of(id))) {
            calls.extend(event.value.via.calls().map(|c| &**c));
        }
    }
    for summaries in [summaries, renamed] {
        for (id, summary) in summaries.iter().enumerate() {
            let carried = params_of(id);
            for event in summary.pending.iter().filter(|e| needed(e, carried)) {
                calls.extend(event.value.via.calls().map(|c| &**c));
            }
            for (site, inputs) in &summary.demands {
                let carried = inputs.at(tier, carried.facts, carried.at_stores);
                if carried.fact {
                    calls.insert(site);
                } else if carried.at_stores {
                    toward_stores.insert(site);
                }
            }
        }
    }
    toward_stores.retain(|site| !calls.contains(site));
    let sorted = |sites: HashSet<&CallSite>| {
        let mut sites: Vec<CallSite> = sites.into_iter().cloned().collect();
        sites.sort_unstable();
        sites
    };
    TierCalls {
        calls: sorted(calls),
        toward_stores: sorted(toward_stores),
    }
}

/// What some crate-local caller passes a function's parameters (bit N =
/// parameter N).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct ParamFacts {
    /// A fact that counts anywhere.
    facts: u64,
    /// What counts only at an idempotency store (a request id, SQL text).
    at_stores: u64,
    /// The request payload, which a digest of the parameter makes a
    /// payload hash.
    payload: u64,
}

impl ParamFacts {
    fn union(self, other: ParamFacts) -> ParamFacts {
        ParamFacts {
            facts: self.facts | other.facts,
            at_stores: self.at_stores | other.at_stores,
            payload: self.payload | other.payload,
        }
    }
}

/// Per function, the parameters some crate-local caller passes a value
/// that may carry a fact of confidence `tier` (a fact of its own, or one
/// of the caller's parameters that does) or the payload. A function no
/// analysed function calls (a handler) gets its facts from its extractors,
/// not its parameters.
fn fact_params(summaries: &[&[Summary]], tier: Confidence) -> Vec<ParamFacts> {
    let len = summaries.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut params = vec![ParamFacts::default(); len];
    // Masks only grow, so this ends; each pass is linear in the calls.
    loop {
        let mut changed = false;
        for (caller, summary) in summaries.iter().flat_map(|s| s.iter().enumerate()) {
            let known = params[caller];
            for (callee, args) in &summary.arg_flows {
                let mut mask = ParamFacts::default();
                for (i, arg) in args.iter().take(64).enumerate() {
                    let carried = arg.at(tier, known.facts, known.at_stores);
                    if carried.fact {
                        mask.facts |= 1 << i;
                    }
                    if carried.at_stores {
                        mask.at_stores |= 1 << i;
                    }
                    if arg.payload || arg.params & known.payload != 0 {
                        mask.payload |= 1 << i;
                    }
                }
                if let Some(slot) = params.get_mut(*callee) {
                    let grown = slot.union(mask);
                    if grown != *slot {
                        *slot = grown;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return params;
        }
    }
}
