use ferrum::kv::SharedKv;
use idem_scope::{scoped, scoped_server, Namespace};
use relay::http::HeaderMap;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct BillingEvent {
    pub id: String,
    pub account_id: String,
    pub actor_id: String,
    pub kind: String,
}

#[derive(Serialize)]
struct InboxKey<'a> {
    ns: Namespace,
    tenant_id: &'a str,
    principal_id: &'a str,
    route: &'a str,
    key: &'a str,
}

pub struct BillingInbox {
    store: SharedKv,
    billing: billing::Engine,
}

impl BillingInbox {
    pub async fn api_adjust(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap, cents: i64) -> anyhow::Result<u16> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 Idempotency-Key required"))?;
        let sk = scoped(tenant_id, user_id, "billing.adjust", key)?;
        if self.store.exists(sk.storage_key()).await? {
            return Ok(200);
        }
        self.billing.adjust(tenant_id, cents).await?;
        self.store.set(sk.storage_key(), b"done").await?;
        Ok(201)
    }

    pub async fn on_invoice_event(&self, evt: &BillingEvent) -> anyhow::Result<()> {
        let sk = scoped_server(&evt.account_id, &evt.actor_id, "billing.adjust", &evt.id)?;
        if self.store.exists(sk.storage_key()).await? {
            return Ok(());
        }
        self.billing.apply_invoice_event(&evt.account_id, &evt.kind).await?;
        self.store.set(sk.storage_key(), b"done").await?;
        Ok(())
    }

    pub async fn on_dunning_event(&self, evt: &BillingEvent) -> anyhow::Result<()> {
        let ik = InboxKey { ns: Namespace::Server, tenant_id: &evt.account_id, principal_id: &evt.actor_id, route: "billing.dunning", key: &evt.id };
        let encoded = serde_json::to_vec(&ik)?;
        if self.store.exists(&encoded).await? {
            return Ok(());
        }
        self.billing.apply_dunning(&evt.account_id).await?;
        self.store.set(&encoded, b"done").await?;
        Ok(())
    }
}
