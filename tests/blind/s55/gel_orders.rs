use anyhow::{anyhow, bail};
use gel_tokio::Client;
use idem_scope::{scoped, ScopedKey};
use keystone::Session;
use relay::http::HeaderMap;
use uuid::Uuid;

const ANON_PRINCIPAL: &str = "anon";

pub struct GelIdem {
    db: Client,
}

impl GelIdem {
    pub async fn reserve(&self, key: &ScopedKey) -> Result<bool, gel_tokio::Error> {
        let c = key.columns();
        let inserted: Option<Uuid> = self
            .db
            .query_single(
                "insert IdempotencyRecord { tenant := <str>$0, principal := <str>$1, route := <str>$2, \
                 key := <str>$3, status := 'in_progress' } unless conflict",
                &(c.tenant_id, c.principal_id, c.route, c.idem_key),
            )
            .await?;
        Ok(inserted.is_some())
    }

    pub async fn complete(&self, key: &ScopedKey, response: &str) -> Result<(), gel_tokio::Error> {
        let c = key.columns();
        self.db
            .execute(
                "update IdempotencyRecord filter .tenant = <str>$0 and .principal = <str>$1 and .route = <str>$2 \
                 and .key = <str>$3 set { status := 'completed', response := <str>$4 }",
                &(c.tenant_id, c.principal_id, c.route, c.idem_key, response),
            )
            .await
    }

    pub async fn release(&self, key: &ScopedKey) -> Result<(), gel_tokio::Error> {
        let c = key.columns();
        self.db
            .execute(
                "delete IdempotencyRecord filter .tenant = <str>$0 and .principal = <str>$1 \
                 and .route = <str>$2 and .key = <str>$3",
                &(c.tenant_id, c.principal_id, c.route, c.idem_key),
            )
            .await
    }
}

fn idem_header(headers: &HeaderMap) -> anyhow::Result<&str> {
    headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow!("400 missing Idempotency-Key"))
}

pub async fn create_order(idem: &GelIdem, db: &Client, session: &Session, headers: &HeaderMap, sku: &str, qty: u32) -> anyhow::Result<String> {
    let key = idem_header(headers)?;
    let principal = match session.user_id.as_deref() {
        Some(uid) => uid,
        None => ANON_PRINCIPAL,
    };
    let sk = scoped(&session.tenant_id, principal, "orders.create", key)?;
    if !idem.reserve(&sk).await? {
        bail!("409 request in progress");
    }
    let id: Uuid = db
        .query_required_single("select (insert Order { sku := <str>$0, qty := <int32>$1 }).id", &(sku, qty as i32))
        .await?;
    let body = serde_json::to_string(&serde_json::json!({ "order_id": id })).expect("json");
    idem.complete(&sk, &body).await?;
    Ok(body)
}

pub async fn cancel_order(idem: &GelIdem, db: &Client, session: &Session, headers: &HeaderMap, order_id: Uuid) -> anyhow::Result<()> {
    let key = idem_header(headers)?;
    let uid = session.user_id.as_deref().ok_or_else(|| anyhow!("401 sign in required"))?;
    let sk = scoped(&session.tenant_id, uid, "orders.cancel", key)?;
    let fresh = idem.reserve(&sk).await?;
    if !fresh {
        bail!("409 request in progress");
    }
    match db.execute("update Order filter .id = <uuid>$0 set { status := 'cancelled' }", &(order_id,)).await {
        Ok(()) => idem.complete(&sk, "{}").await?,
        Err(e) => {
            idem.release(&sk).await?;
            return Err(e.into());
        }
    }
    Ok(())
}
