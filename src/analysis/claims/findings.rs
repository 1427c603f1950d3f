//! What IDEM004's analysis reports: a claim, its unreleased exits and its
//! completion.

use crate::analysis::value::Site;

/// How a path leaves the function (or the claim's block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExitKind {
    /// `expr?`.
    Question,
    /// `return`.
    Return,
    /// `break` out of the claim's loop or block.
    Break,
    /// `continue` to the next iteration of the claim's loop.
    Continue,
    /// A panicking macro (`panic!`, `unreachable!`, `assert!` …) or `resume_unwind`.
    Panic(String),
    /// `.unwrap()` / `.expect(..)`.
    Unwrap(String),
    /// The function's tail value on a path that neither completed nor released.
    Tail,
    /// The end of a body that gives no value (its last statement), reached
    /// on a path that neither completed nor released.
    End,
}

/// One early exit that leaves a claim in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimExit {
    /// What kind of exit.
    pub kind: ExitKind,
    /// The exit expression.
    pub site: Site,
}

/// The prefix of a key root that is a key constructor's call
/// (`scoped(..)`): a claim on it is on an idempotency key by flow.
pub(super) const SCOPED_ROOT: &str = "scoped:";

/// The prefix of a key root that is a read of the key header.
pub(super) const HEADER_ROOT: &str = "header:";

/// The prefix of a key root that is a call of a crate function returning
/// a scoped key or the client's key by flow (`key_for(&req, ..)`).
pub(super) const KEY_MAKER_ROOT: &str = "key-maker:";

/// Whether a claim key derived from `root` is the client's idempotency key
/// by flow: built by a key constructor or a crate function that returns
/// one, or read from the key header.
pub(super) fn root_by_flow(root: &str) -> bool {
    root.starts_with(SCOPED_ROOT)
        || root.starts_with(HEADER_ROOT)
        || root.starts_with(KEY_MAKER_ROOT)
}

/// A claim that some path leaves in progress before its completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimFinding {
    /// The claim call.
    pub claim: Site,
    /// The claim's verb (`try_claim`, `set_nx`, `INSERT … 'in_progress'`).
    pub verb: String,
    /// Source text of the key argument.
    pub key_text: String,
    /// Unreleased exits, in source order.
    pub exits: Vec<ClaimExit>,
    /// The first completion of the same key.
    pub completion: Site,
    /// A client key known by flow (or a scoped key) reaches the claim call:
    /// the claim is on an idempotency record, not a lease or a job start
    /// that uses the same verbs. Set by the walk when the key derives from a
    /// key constructor or a key header read (`root_by_flow`) or the claim
    /// is a SQL statement on an idempotency table, else by
    /// `analysis::analyze` from the key events at the claim.
    pub by_flow: bool,
}
