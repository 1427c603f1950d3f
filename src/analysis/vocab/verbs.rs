//! The IDEM004 verbs: names that claim, complete or release an
//! idempotency record, lock and transaction verbs, response writes and
//! the "not claimed" variants. Configured verbs extend the built-in ones;
//! the `Vocabulary` methods are the only way to ask.

use super::text::words;
use super::vocabulary::Vocabulary;

/// Method or function names that create an in-progress record for a key.
pub const CLAIM_VERBS: &[&str] = &[
    "claim",
    "try_claim",
    "begin",
    "acquire",
    "try_acquire",
    "lock",
    "try_lock",
    "obtain",
    "reserve",
    "set_nx",
    "setnx",
    "insert_if_absent",
    "start",
    "mark_in_progress",
];

/// Claim verbs of lock APIs, which in Rust conventionally return an RAII
/// guard: a bound result that is not tested like a flag is held as a guard.
pub const LOCK_VERBS: &[&str] = &["lock", "try_lock", "acquire", "try_acquire"];

/// Names that store the outcome of a claimed request under its key.
pub const COMPLETE_VERBS: &[&str] = &[
    "complete",
    "finish",
    "commit",
    "mark_completed",
    "mark_complete",
    "mark_done",
    "save_response",
    "store_response",
];

/// Storage writes that complete a claim when one of their values is the
/// response (`conn.set(&key, &response_bytes)`).
pub const RESPONSE_WRITE_METHODS: &[&str] = &[
    "set",
    "set_ex",
    "pset_ex",
    "set_options",
    "put",
    "save",
    "insert",
    "upsert",
    "store",
];

/// Words that mark a written value as the response of the request.
pub const RESPONSE_WORDS: &[&str] = &[
    "response",
    "resp",
    "res",
    "body",
    "result",
    "output",
    "outcome",
    "reply",
    "payload",
    "completed",
    "complete",
    "done",
    "finished",
    "succeeded",
    "cached",
    "stored",
];

/// Names that remove or abandon an in-progress record.
pub const RELEASE_VERBS: &[&str] = &[
    "release",
    "abandon",
    "unlock",
    "del",
    "delete",
    "remove",
    "rollback",
    "cancel",
    "abort",
    "unclaim",
    "fail",
    "mark_failed",
];

/// Names that open a database transaction (which rolls back on drop).
pub const TRANSACTION_VERBS: &[&str] = &[
    "begin",
    "transaction",
    "begin_transaction",
    "start_transaction",
    "begin_with",
    "tx",
];

/// Match arm / `if let` variants meaning "someone else holds or finished
/// this key": the claim was not taken on that branch.
pub const NOT_CLAIMED_VARIANTS: &[&str] = &[
    "None",
    "Err",
    "Exists",
    "AlreadyExists",
    "Conflict",
    "InProgress",
    "Completed",
    "Complete",
    "Done",
    "Duplicate",
    "AlreadyClaimed",
    "Taken",
    "Busy",
    "Locked",
    "Replay",
    "Cached",
    "Found",
    "Pending",
    "Stored",
    "Hit",
    "Mismatch",
    "Rejected",
    "NotAcquired",
    "InFlight",
    "Processing",
    "AlreadyProcessing",
    "AlreadyInProgress",
    "AlreadyCompleted",
    "Occupied",
    "Existing",
    "Replayed",
    "Seen",
    "AlreadySeen",
    "AlreadyDone",
    "Ongoing",
];

fn verb_matches(list: &[&str], name: &str, prefixed: &[&str]) -> bool {
    list.contains(&name)
        || prefixed.iter().any(|p| {
            name.len() > p.len() + 1 && name.starts_with(p) && name[p.len()..].starts_with('_')
        })
}

/// Whether a call name is a built-in claim verb (`claim`, `try_claim_slot`,
/// `set_nx`); ask [`Vocabulary::is_claim_verb`], which adds configured verbs.
fn builtin_claim_verb(name: &str) -> bool {
    // The cheap test first: the pre-filter asks it of many identifiers.
    (verb_matches(
        CLAIM_VERBS,
        name,
        &[
            "claim",
            "try_claim",
            "mark_in_progress",
            "reserve",
            "set_nx",
        ],
    ) || claims_by_words(name))
        && !words(name).last().is_some_and(|w| {
            // `claim_key(..)`, `claim_ttl()` name a thing, not an action.
            matches!(
                w.as_str(),
                "key"
                    | "keys"
                    | "id"
                    | "ttl"
                    | "name"
                    | "prefix"
                    | "status"
                    | "state"
                    | "table"
                    | "timeout"
            )
        })
}

/// A compound verb whose action is a claim (`check_or_claim`,
/// `try_acquire_lock`, `obtain_lease`): a claim word that is not the
/// object of a getter or predicate (`get_claim`, `is_reserved`) nor of a
/// completion or release (`release_claim`). Like every claim verb it
/// counts only when the call takes a key.
fn claims_by_words(name: &str) -> bool {
    const ACTIONS: &[&str] = &["claim", "acquire", "obtain", "reserve"];
    const NOT_ACTIONS: &[&str] = &[
        "get", "is", "has", "find", "fetch", "load", "read", "list", "count", "lookup", "was",
        "should", "can", "with", "new", "build", "make", "parse", "validate", "verify",
    ];
    if !ACTIONS.iter().any(|a| name.contains(a)) {
        return false;
    }
    let ws = words(name);
    ws.len() > 1
        && ws.iter().any(|w| ACTIONS.contains(&w.as_str()))
        && !ws
            .first()
            .is_some_and(|w| NOT_ACTIONS.contains(&w.as_str()))
        && !builtin_complete_verb(name)
        && !builtin_release_verb(name)
        && !ws
            .iter()
            .any(|w| RELEASE_VERBS.contains(&w.as_str()) || COMPLETE_VERBS.contains(&w.as_str()))
}

/// Lock-style claim verbs, which return an RAII guard when their result is
/// bound (`lock`, `try_acquire_lock`, `obtain_lease`).
pub fn is_lock_verb(name: &str) -> bool {
    LOCK_VERBS.contains(&name)
        || (claims_by_words(name)
            && words(name)
                .iter()
                .any(|w| matches!(w.as_str(), "lock" | "acquire" | "obtain" | "lease")))
}

/// Whether a call name is a built-in completion verb.
fn builtin_complete_verb(name: &str) -> bool {
    verb_matches(
        COMPLETE_VERBS,
        name,
        &[
            "complete",
            "mark_completed",
            "mark_done",
            "save_response",
            "store_response",
        ],
    )
}

/// Whether a call name is a built-in release verb.
fn builtin_release_verb(name: &str) -> bool {
    verb_matches(
        RELEASE_VERBS,
        name,
        &[
            "release", "abandon", "unlock", "delete", "remove", "cancel", "abort", "unclaim",
        ],
    )
}

impl Vocabulary {
    /// Whether a method claims an idempotency record (`claim`, `try_claim`, `set_nx`…).
    pub fn is_claim_verb(&self, method: &str) -> bool {
        builtin_claim_verb(method) || self.claim_verbs.iter().any(|m| m == method)
    }

    /// Whether a method completes a claimed record (`complete`, `save_response`…).
    pub fn is_complete_verb(&self, method: &str) -> bool {
        builtin_complete_verb(method) || self.complete_verbs.iter().any(|m| m == method)
    }

    /// Whether a method releases a claimed record (`release`, `abandon`, `del`…).
    pub fn is_release_verb(&self, method: &str) -> bool {
        builtin_release_verb(method) || self.release_verbs.iter().any(|m| m == method)
    }
}

#[cfg(test)]
mod tests {
    use super::super::extension::VocabularyExtension;
    use super::*;

    #[test]
    fn verbs_by_name() {
        let v = Vocabulary::default();
        assert!(v.is_claim_verb("try_claim"));
        assert!(v.is_claim_verb("claim_slot"));
        assert!(!v.is_claim_verb("claim_key"));
        assert!(!v.is_claim_verb("claimed"));
        assert!(v.is_claim_verb("check_or_claim"));
        assert!(v.is_claim_verb("try_acquire_lock"));
        assert!(v.is_claim_verb("set_nx_ex"));
        assert!(!v.is_claim_verb("get_claim"));
        assert!(!v.is_claim_verb("release_claim"));
        assert!(!v.is_claim_verb("is_reserved"));
        assert!(!v.is_claim_verb("acquire_timeout"));
        assert!(is_lock_verb("try_acquire_lock") && is_lock_verb("lock"));
        assert!(!is_lock_verb("check_or_claim"));
        assert!(v.is_complete_verb("complete_request"));
        assert!(!v.is_complete_verb("completed"));
        assert!(v.is_release_verb("del"));
        assert!(!v.is_release_verb("deleted_at"));
    }

    #[test]
    fn configured_verbs_extend_the_built_in_ones() {
        let mut v = Vocabulary::default();
        v.extend(&VocabularyExtension {
            claim_verbs: vec!["lease".to_string()],
            complete_verbs: vec!["seal".to_string()],
            release_verbs: vec!["evict".to_string()],
            ..VocabularyExtension::default()
        });
        assert!(v.is_claim_verb("lease") && v.is_claim_verb("claim"));
        assert!(v.is_complete_verb("seal") && v.is_complete_verb("complete"));
        assert!(v.is_release_verb("evict") && v.is_release_verb("release"));
    }
}
