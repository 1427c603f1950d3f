use edgedb_tokio::Client;
use ferrum::web::{HeaderMap, Json, State};
use idem_scope::{scoped, ScopedKey};
use keystone::Auth;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Deserialize, Serialize)]
pub struct TransferInput {
    pub from: String,
    pub to: String,
    pub amount_minor: i64,
}

#[derive(Clone)]
pub struct EdgeIdem {
    db: Client,
}

impl EdgeIdem {
    pub async fn lookup(&self, tenant: &str, user: &str, route: &str, key: &str) -> anyhow::Result<Option<String>> {
        Ok(self
            .db
            .query_single(
                "select (select IdemEntry filter .tenant = <str>$0 and .principal = <str>$1 \
                 and .route = <str>$2 and .key = <str>$3 limit 1).response",
                &(tenant, user, route, key),
            )
            .await?)
    }

    pub async fn lookup_scoped(&self, sk: &ScopedKey) -> anyhow::Result<Option<String>> {
        let c = sk.columns();
        self.lookup(c.tenant_id, c.principal_id, c.route, c.idem_key).await
    }
}

pub async fn transfer(
    State(store): State<EdgeIdem>,
    auth: Auth,
    Json(input): Json<TransferInput>,
) -> anyhow::Result<String> {
    let digest = hex::encode(Sha256::digest(serde_json::to_vec(&input)?));
    if let Some(prev) = store.lookup(&auth.tenant_id, &auth.user_id, "ledger.transfer", &digest).await? {
        return Ok(prev);
    }
    ledger::post_transfer(&auth.tenant_id, &input.from, &input.to, input.amount_minor).await
}

pub async fn transfer_v2(
    State(store): State<EdgeIdem>,
    auth: Auth,
    headers: HeaderMap,
    Json(input): Json<TransferInput>,
) -> anyhow::Result<String> {
    let client_key = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
    let hashed = hex::encode(Sha256::digest(client_key.as_bytes()));
    let sk = scoped(&auth.tenant_id, &auth.user_id, "ledger.transfer", &hashed)?;
    if let Some(prev) = store.lookup_scoped(&sk).await? {
        return Ok(prev);
    }
    ledger::post_transfer(&auth.tenant_id, &input.from, &input.to, input.amount_minor).await
}
