//! A baseline's records and what applying one did: the part of baselines
//! that reports show (`stale` entries, the `baselined` count). Reading,
//! writing and matching baselines is `crate::baseline`'s job.

use serde::{Deserialize, Serialize};

/// The identity of a finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Identity {
    /// File, relative to the baseline file's directory, `/`-separated.
    pub path: String,
    /// Rule code.
    pub code: String,
    /// Path of the innermost enclosing item within the file (`""` at top level).
    pub item: String,
    /// Hash of the normalised tokens of the primary span.
    pub fingerprint: String,
}

/// One line of the baseline: an identity and how many findings have it.
// No `deny_unknown_fields`: serde does not support it together with `flatten`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry {
    /// What is baselined.
    #[serde(flatten)]
    pub identity: Identity,
    /// Rule name, for people reading the file.
    pub name: String,
    /// How many findings have this identity.
    pub count: usize,
}

/// What applying a baseline did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BaselineOutcome {
    /// Findings hidden because the baseline lists them.
    pub suppressed: usize,
    /// Entries (with the number of findings missing) that matched fewer
    /// findings than they count: those findings were fixed.
    pub stale: Vec<Entry>,
}
