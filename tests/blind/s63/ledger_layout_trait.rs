use std::fmt::Write as _;
use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem, ScopeError};
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

pub trait KeyLayout: Send + Sync {
    fn ledger_slot(&self, caller: &Caller, route: &str, client_key: &str) -> Result<String, ScopeError>;
}

/// Layout used by the 2021 ledger; kept until the v2 backfill finishes.
pub struct FlatLayout;

impl KeyLayout for FlatLayout {
    fn ledger_slot(&self, caller: &Caller, route: &str, client_key: &str) -> Result<String, ScopeError> {
        let mut out = String::with_capacity(96);
        write!(out, "{}\u{1e}{}\u{1e}{}\u{1e}{}", caller.workspace_id, caller.subject, route, client_key).expect("write to String");
        Ok(out)
    }
}

pub struct ScopedLayout;

impl KeyLayout for ScopedLayout {
    fn ledger_slot(&self, caller: &Caller, route: &str, client_key: &str) -> Result<String, ScopeError> {
        let sk = scoped(&caller.workspace_id, &caller.subject, route, client_key)?;
        let mut out = String::with_capacity(sk.storage_key().len() + 7);
        write!(out, "ledger/{}", sk.storage_key()).expect("write to String");
        Ok(out)
    }
}

pub struct LedgerApi {
    vat: Arc<Vat>,
    layout: Box<dyn KeyLayout>,
    postings: Arc<postings::Book>,
}

impl LedgerApi {
    pub fn new(vat: Arc<Vat>, postings: Arc<postings::Book>, v2_keys: bool) -> Self {
        let layout: Box<dyn KeyLayout> = if v2_keys { Box::new(ScopedLayout) } else { Box::new(FlatLayout) };
        Self { vat, layout, postings }
    }

    pub async fn post_entry(&self, ctx: Ctx, caller: Caller) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let slot = self
            .layout
            .ledger_slot(&caller, "ledger_post", client_key)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        if let Some(done) = self.vat.get(&slot).await.ok().flatten() {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let entry = self.postings.post(&caller.workspace_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let _ = self.vat.put(&slot, entry.clone()).await;
        Ok(Reply::bytes(Status::CREATED, entry))
    }
}
