use http::{HeaderMap, HeaderValue};
use idem_scope::scoped;
use larder::sql::{Db, Stmt};
use serde::Deserialize;

pub const INBOX_DDL: &str = "
CREATE TABLE IF NOT EXISTS carrier_event_inbox (
    event_id     TEXT        PRIMARY KEY,
    carrier      TEXT        NOT NULL,
    received_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);";

#[derive(Deserialize)]
pub struct CarrierEvent {
    pub event_id: String,
    pub tracking_no: String,
    pub status: String,
}

pub struct CarrierInbox {
    db: Db,
    notify_url: String,
}

impl CarrierInbox {
    /// Carrier pushes tracking updates; each event id is applied once.
    pub async fn accept(&self, carrier: &str, ev: CarrierEvent) -> anyhow::Result<bool> {
        let fresh = Stmt::new("INSERT INTO carrier_event_inbox (event_id, carrier) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(&ev.event_id)
            .bind(carrier)
            .execute(&self.db)
            .await?
            .rows_affected()
            == 1;
        if !fresh {
            return Ok(false);
        }

        let mut headers = HeaderMap::new();
        headers.insert("Idempotency-Key", HeaderValue::from_str(&ev.event_id)?);
        crate::notify::post_json(&self.notify_url, headers, &serde_json::json!({
            "tracking_no": ev.tracking_no,
            "status": ev.status,
        }))
        .await?;
        Ok(true)
    }

    /// Customers can ask for a manual re-check of a shipment.
    pub async fn recheck(&self, headers: &HeaderMap, tenant_id: &str, user_id: &str, tracking_no: &str) -> anyhow::Result<()> {
        let k = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let key = scoped(tenant_id, user_id, "shipments.recheck", k)?;
        let c = key.columns();
        Stmt::new("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES ($1, $2, $3, $4, $5, $6, 'completed') ON CONFLICT DO NOTHING")
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .execute(&self.db)
            .await?;
        crate::tracking::enqueue_recheck(tracking_no).await
    }
}
