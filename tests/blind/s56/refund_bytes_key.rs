use marrow::Kv;
use serde::Deserialize;

pub const MIRROR_DDL: &str = "CREATE TABLE IF NOT EXISTS replay_mirror (
    tenant_id    TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    route        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    body         BLOB NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
) STRICT";

#[derive(Deserialize)]
pub struct RefundInput {
    pub charge_id: String,
    pub amount_minor: i64,
    pub reason: Option<String>,
}

pub struct RefundService {
    kv: Kv,
    acquirer: crate::acquirer::Client,
}

impl RefundService {
    pub fn refund(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, input: RefundInput) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let route = "refunds.create";

        let mut raw = Vec::with_capacity(caller.tenant_id.len() + caller.user_id.len() + key.len() + 24);
        raw.extend_from_slice(caller.tenant_id.as_bytes());
        raw.push(0x1e);
        raw.extend_from_slice(caller.user_id.as_bytes());
        raw.push(0x1e);
        raw.extend_from_slice(route.as_bytes());
        raw.push(0x1e);
        raw.extend_from_slice(key.as_bytes());

        if let Some(done) = self.kv.get(&raw)? {
            return Ok(done);
        }
        let reason = input.reason.unwrap_or_default();
        let refund = self.acquirer.refund(&caller.tenant_id, &input.charge_id, input.amount_minor, &reason)?;
        let body = serde_json::to_vec(&refund)?;
        self.kv.put(&raw, &body)?;
        Ok(body)
    }
}
