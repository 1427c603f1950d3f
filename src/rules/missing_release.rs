//! IDEM004: a claim left in progress by an early exit before its completion
//! (the docs are rules/missing-release.md).

use super::{Finding, Rule, Sink};
use crate::analysis::claims::{ClaimExit, ExitKind};
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;
use crate::model::diagnostic::Confidence;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM004",
    name: "missing-release",
    level: Severity::Error,
    check: Some(check),
    summary: "idempotency claim left in progress by an early exit",
    docs: include_str!("../../rules/missing-release.md"),
    needs: &[super::Fact::Claims],
};

/// Exits labelled one by one; the rest are counted in the last label.
const SHOWN_EXITS: usize = 4;

fn describe(exit: &ClaimExit) -> String {
    match &exit.kind {
        ExitKind::Question => "`?` returns early here".to_string(),
        ExitKind::Return => "returns early here".to_string(),
        ExitKind::Break => "`break` leaves the claim's loop here".to_string(),
        ExitKind::Continue => "`continue` skips the completion here".to_string(),
        ExitKind::Panic(what) => format!("`{what}` panics here"),
        ExitKind::Unwrap(what) => format!("`.{what}()` panics here on failure"),
        ExitKind::Tail => "the function returns this value".to_string(),
        ExitKind::End => "the body ends here".to_string(),
    }
}

/// Reports every claim with an unreleased early exit.
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    // A claim is an idempotency claim only where the unit has idempotency
    // context: `lock`/`acquire`/`start` ... `commit` is everywhere else.
    if facts.without_idempotency_context {
        return;
    }
    for finding in &facts.claims {
        let count = finding.exits.len();
        let mut labels: Vec<(String, _)> = finding
            .exits
            .iter()
            .take(SHOWN_EXITS)
            .map(|e| {
                (
                    format!("{} without releasing the claim", describe(e)),
                    e.site,
                )
            })
            .collect();
        if count > SHOWN_EXITS {
            if let Some(last) = labels.last_mut() {
                last.0 = format!("{} (and {} more)", last.0, count - SHOWN_EXITS);
            }
        }
        labels.push((
            "completed here, only on the path that gets this far".to_string(),
            finding.completion,
        ));
        let key = if finding.key_text.chars().count() > 40 {
            "the key".to_string()
        } else {
            format!("`{}`", finding.key_text)
        };
        let exits = if count == 1 {
            "an early exit".to_string()
        } else {
            format!("{count} early exits")
        };
        let help = format!(
            "hold the claim in `idem_scope::ClaimGuard` so that every exit releases it: right after the claim, \
             `let guard = ClaimGuard::new(move || /* release the claim on {plain} */);`, and after storing the response, \
             `guard.complete();`. When the release is async (`.await`, as with most stores), `Drop` cannot await: take \
             `let rt = tokio::runtime::Handle::current();` before the guard and spawn the release from it, \
             `ClaimGuard::new(move || {{ rt.spawn(async move {{ /* release */ }}); }})` (ClaimGuard's docs, \"Async stores\"). \
             Or release the claim on every error path (an `Err` arm, `map_err(|e| {{ /* release */ e }})?`)",
            plain = finding.key_text.chars().take(40).collect::<String>()
        );
        let message = format!(
            "claim on {key} (`{}`) is left in progress by {exits} before it is completed; every retry gets 409 until it expires",
            finding.verb
        );
        sink.add(
            Finding::new(&RULE, finding.claim, message)
                .labels(labels)
                .help(help)
                // A claim recognised by its verb and a key-named argument
                // alone may be a lease, a job start or a lock.
                .confidence(if finding.by_flow {
                    Confidence::Certain
                } else {
                    Confidence::Possible
                }),
        );
    }
}
