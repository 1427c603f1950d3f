//! What a round of the analysis asks of the pre-filter's next round
//! (`prefilter::Demand`): the calls it could not resolve whose callees it
//! needs. A call is needed where its result reaches a key position that
//! may make a finding, or where it is given a value that may carry a fact
//! into the callee. Every other call of an analysed function is left
//! unresolved: its callee cannot change a finding, and is never analysed.

use std::collections::HashSet;

use super::eval::{KeyEvent, Summary};

/// The names of the unresolved calls the next round analyses. `fn_events`
/// and `summaries` are per function of the index; `renamed` are the
/// summaries of the second fixpoint, if there was one.
pub fn demanded_calls(
    fn_events: &[Vec<KeyEvent>],
    summaries: &[Summary],
    renamed: &[Summary],
    client_stores: &HashSet<String>,
) -> Vec<String> {
    let fact_params = fact_params(&[summaries, renamed]);
    let mut names: HashSet<&str> = HashSet::new();
    let needed = |event: &KeyEvent, params: u64| {
        event.value.starts_findings()
            || event.value.params & params != 0
            || (event.store.as_ref()).is_some_and(|s| client_stores.contains(s))
    };
    for (id, events) in fn_events.iter().enumerate() {
        let params = fact_params.get(id).copied().unwrap_or(0);
        for event in events.iter().filter(|e| needed(e, params)) {
            names.extend(event.value.via.names());
        }
    }
    for summaries in [summaries, renamed] {
        for (id, summary) in summaries.iter().enumerate() {
            let params = fact_params.get(id).copied().unwrap_or(0);
            for event in summary.pending.iter().filter(|e| needed(e, params)) {
                names.extend(event.value.via.names());
            }
            for (name, inputs) in &summary.demands {
                if inputs.carries(params) {
                    names.insert(name);
                }
            }
        }
    }
    let mut names: Vec<String> = names.into_iter().map(String::from).collect();
    names.sort_unstable();
    names
}

/// Per function, the parameters (bit N = parameter N) some crate-local
/// caller passes a value that may carry a fact: a fact of its own, or
/// one of the caller's parameters that does. A function no analysed
/// function calls (a handler) gets its facts from its extractors, not its
/// parameters.
fn fact_params(summaries: &[&[Summary]]) -> Vec<u64> {
    let len = summaries.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut params = vec![0u64; len];
    // Masks only grow, so this ends; each pass is linear in the calls.
    loop {
        let mut changed = false;
        for (caller, summary) in summaries.iter().flat_map(|s| s.iter().enumerate()) {
            let given = params[caller];
            for (callee, args) in &summary.arg_flows {
                let mask = (args.iter().take(64).enumerate())
                    .filter(|(_, a)| a.carries(given))
                    .fold(0u64, |mask, (i, _)| mask | 1 << i);
                if let Some(known) = params.get_mut(*callee) {
                    if *known | mask != *known {
                        *known |= mask;
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
