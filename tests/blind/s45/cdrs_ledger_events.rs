use cdrs_tokio::query_values;
use idem_scope::scoped;

pub const LEDGER_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS ledger.replay_guard (
    scope_version text,
    tenant_id text,
    principal_id text,
    route text,
    ns text,
    idem_key text,
    response text,
    PRIMARY KEY ((scope_version, tenant_id), principal_id, route, ns, idem_key)
)
"#;

pub struct LedgerEvents {
    session: CassSession,
    ledger: Ledger,
}

pub struct PostedEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub principal_id: String,
}

impl LedgerEvents {
    pub async fn api_post(&self, headers: &[(String, String)], tenant_id: &str, principal_id: &str, body: &[u8]) -> Result<String, LedgerError> {
        let op_id = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).ok_or(LedgerError::MissingKey)?;
        let key = scoped(tenant_id, principal_id, "ledger.post", &op_id)?;
        let c = key.columns();
        let out = self.ledger.post(tenant_id, body).await?;
        self.session
            .query_with_values("INSERT INTO ledger.replay_guard (scope_version, tenant_id, principal_id, route, ns, idem_key, response) VALUES (?, ?, ?, ?, ?, ?, ?)", query_values!(c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key, out.clone()))
            .await?;
        Ok(out)
    }

    pub async fn on_event(&self, evt: &PostedEvent, body: &[u8]) -> Result<(), LedgerError> {
        let out = self.ledger.post(&evt.tenant_id, body).await?;
        self.session
            .query_with_values("INSERT INTO ledger.replay_guard (scope_version, tenant_id, principal_id, route, ns, idem_key, response) VALUES ('v1', ?, ?, 'ledger.post', 'u:', ?, ?)", query_values!(evt.tenant_id.clone(), evt.principal_id.clone(), evt.event_id.clone(), out))
            .await?;
        Ok(())
    }
}
