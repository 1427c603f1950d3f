//! The shared analysis: computed once per unit, queried by every rule.
//!
//! For every function the evaluator ([`eval`]) computes which values carry
//! a client key, scope components, parameters, and which of them reach a key
//! position. Crate-local calls are resolved through function summaries,
//! iterated to a fixpoint ([`analyze`]).

pub mod eval;
pub mod format_string;
pub mod hashing;
pub mod index;
pub mod value;
pub mod vocab;

use eval::{Evaluator, KeyEvent, Summary};
use index::{CrateIndex, ParsedFile};
use vocab::Vocabulary;

/// Summaries stop being refined after this many rounds (recursion terminates).
const MAX_ROUNDS: usize = 6;

/// What the rules query.
#[derive(Debug, Default)]
pub struct UnitFacts {
    /// Every value that reached a key position, deduplicated.
    pub key_events: Vec<KeyEvent>,
}

/// Analyses all files of one unit together.
pub fn analyze(files: &[ParsedFile], vocab: &Vocabulary) -> UnitFacts {
    let index = CrateIndex::build(files);
    let mut summaries: Vec<Summary> = vec![Summary::default(); index.fns.len()];
    let mut events = Vec::new();
    for round in 0..MAX_ROUNDS {
        let mut next = Vec::with_capacity(summaries.len());
        let mut round_events = Vec::new();
        for def in &index.fns {
            let evaluator = Evaluator::new(&index, vocab, &summaries, def);
            let (summary, fn_events) = evaluator.run(def);
            next.push(summary);
            round_events.extend(fn_events);
        }
        let stable = next
            .iter()
            .zip(&summaries)
            .all(|(a, b)| a.signature() == b.signature());
        summaries = next;
        events = round_events;
        if stable || round + 1 == MAX_ROUNDS {
            break;
        }
    }
    let mut unique: Vec<KeyEvent> = Vec::with_capacity(events.len());
    for event in events {
        if !unique.contains(&event) {
            unique.push(event);
        }
    }
    if std::env::var_os("IDEM_LINT_DEBUG").is_some() {
        for e in &unique {
            eprintln!("[idem-lint debug] event at {:?}: {:#?}", e.site, e.value);
        }
    }
    UnitFacts { key_events: unique }
}
