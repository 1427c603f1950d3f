use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem, Record};
use larder::pantry::Pantry;
use serde::Deserialize;
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

#[derive(Deserialize)]
struct Reversal {
    refund_id: String,
    reason: String,
}

pub struct Reversals {
    pantry: Pantry,
}

impl Reversals {
    /// POST /v1/refunds/{id}/reverse. Support staff may act for a customer tenant.
    pub async fn reverse(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let tenant_id = req
            .header("x-act-as-tenant")
            .filter(|_| caller.roles.iter().any(|r| r == "support"))
            .map(str::to_owned)
            .unwrap_or_else(|| caller.tenant_id.clone());
        let client_key = req
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let key = scoped(&tenant_id, &caller.user_id, "refunds.reverse", client_key)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

        let record = Record::in_progress(Fingerprint::of("refunds.reverse", req.body()));
        let pending = self
            .pantry
            .begin(key.storage_key(), &record, Duration::from_secs(120))
            .await
            .map_err(Reply::internal)?;

        let body: Reversal = req.json()?;
        let ledger_ref = post_reversal(&tenant_id, &body).await.map_err(Reply::internal)?;
        let out = serde_json::to_vec(&serde_json::json!({ "reversal": ledger_ref, "refund": body.refund_id }))
            .map_err(Reply::internal)?;
        pending.complete(&out).await.map_err(Reply::internal)?;
        Ok(Reply::raw(201, out))
    }
}

async fn post_reversal(tenant_id: &str, r: &Reversal) -> anyhow::Result<String> {
    anyhow::ensure!(!r.reason.is_empty(), "reason required");
    Ok(format!("rv_{}_{}", tenant_id.len(), r.refund_id))
}
