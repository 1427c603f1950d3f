//! What the inputs of a call may carry into its callee ([`Demanded`]):
//! what the pre-filter's next round needs analysed (`analysis::demand`).

use std::collections::HashSet;

use super::{Summary, RECEIVER_PARAM};
use crate::analysis::value::{FactTiers, Value};
use crate::model::diagnostic::Confidence;

/// What the inputs of a call may carry into the callee: a fact that starts
/// findings ([`Value::starts_findings`]), or the enclosing function's
/// parameters (bit N = parameter N, digested or not), which carry one where
/// its callers pass one. The payload, a digest or a server-minted id become
/// a finding only in a callee that hashes or stores where client keys are
/// stored, which the pre-filter keeps in any case; the payload is noted so
/// that a digest of a parameter counts where a caller passes one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Demanded {
    /// What the inputs carry themselves.
    pub facts: FactTiers,
    /// The parameters flowing into the inputs.
    pub params: u64,
    /// Whether an input is the request payload.
    pub payload: bool,
}

/// The facts some input of a call carries, for one confidence tier.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Carried {
    /// A fact that counts anywhere ([`FactTiers::fact`]).
    pub fact: bool,
    /// What counts only at an idempotency store (a request id, SQL text):
    /// the callee matters only if it may reach one.
    pub at_stores: bool,
}

impl Demanded {
    /// What `inputs` carry.
    pub fn of<'v>(inputs: impl IntoIterator<Item = &'v Value>) -> Demanded {
        let mut out = Demanded::default();
        for input in inputs {
            out.facts = out.facts.or(input.fact_tiers());
            out.params |= input.params | input.hashed_params;
            out.payload |= input.carries_payload();
        }
        out
    }

    /// Adds what `other` carries.
    pub fn add(&mut self, other: Demanded) {
        self.facts = self.facts.or(other.facts);
        self.params |= other.params;
        self.payload |= other.payload;
    }

    /// Whether anything may be carried.
    pub fn is_some(self) -> bool {
        self.facts.fact(Confidence::Possible)
            || self.facts.at_stores(Confidence::Possible)
            || self.params != 0
            || self.payload
    }

    /// What is carried at confidence `tier`, where the enclosing function's
    /// parameters `fact_params` carry a fact and `store_params` what counts
    /// only at an idempotency store.
    pub fn at(self, tier: Confidence, fact_params: u64, store_params: u64) -> Carried {
        Carried {
            fact: self.facts.fact(tier) || self.params & fact_params != 0,
            at_stores: self.facts.at_stores(tier) || self.params & store_params != 0,
        }
    }
}

/// What a function's summary tells the pre-filter about its callers.
impl Summary {
    /// Whether it returns or stores a key known by a name that it read out
    /// of its receiver, a payload record ([`RECEIVER_PARAM`]).
    fn receiver_key_by_name(&self) -> bool {
        let of_receiver = |v: &Value| {
            v.params & (1u64 << RECEIVER_PARAM) != 0
                && (v.client_key.as_ref())
                    .is_some_and(|(_, s)| s.confidence() == Confidence::Possible)
        };
        of_receiver(&self.ret) || self.pending.iter().any(|e| of_receiver(&e.value))
    }

    /// Whether what it returns, or a key it stores, digests one of its
    /// parameters (`fn shard_of(job: &Job) -> u64` hashing `job`): a fact
    /// only where a caller passes the request payload there.
    pub fn digests_params(&self) -> bool {
        self.ret.hashed_params != 0 || self.pending.iter().any(|e| e.value.hashed_params != 0)
    }

    /// Whether the analysis of a caller, in a run showing findings down to
    /// `tier`, can depend on this function: it returns a value carrying a
    /// fact that starts a finding of that tier ([`Value::fact_tiers`]), a
    /// parameter reaches a key position whose value carries such a fact or
    /// whose store holds client keys (`client_stores`: where a caller's
    /// server-minted id would meet them), or, for `possible` findings, a
    /// parameter is a key by its name alone (whose callers decide,
    /// `server_fed_params`). Otherwise a caller gets from it at most
    /// qualifiers of a key (a tenant, a default, a parameter given back or
    /// stored), which matter only in a caller that holds a key from
    /// elsewhere: a seed of the pre-filter or a caller of a function for
    /// which this is true, analysed with its callees in any case.
    pub fn reaches_callers(&self, client_stores: &HashSet<&str>, tier: Confidence) -> bool {
        // A returned value may reach an idempotency store in a caller.
        let ret = self.ret.fact_tiers();
        // A key known by its name alone makes only `possible` findings,
        // but a payload record's method reading one out of `self`
        // (`self.idem_key` in `fn label(&self)`) gives a key by flow where
        // its caller's receiver is the payload.
        (tier == Confidence::Possible && self.named_key_params != 0)
            || self.receiver_key_by_name()
            || ret.fact(tier)
            || ret.at_stores(tier)
            || self.pending.iter().any(|event| {
                event.starts_findings_at(tier)
                    || (event.store.as_deref()).is_some_and(|s| client_stores.contains(s))
            })
    }
}
