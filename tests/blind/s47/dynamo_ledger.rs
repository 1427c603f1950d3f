use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use gotham::hyper::HeaderMap;
use gotham::state::{FromState, State};
use serde::Serialize;

pub struct LedgerDedup {
    pub ddb: Client,
}

#[derive(Serialize)]
struct Owner<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
}

fn header(state: &State, name: &str) -> Option<String> {
    HeaderMap::borrow_from(state).get(name)?.to_str().ok().map(str::to_owned)
}

impl LedgerDedup {
    pub async fn seen_transfer(&self, state: &State) -> anyhow::Result<bool> {
        let tenant_id = header(state, "x-tenant-id").ok_or_else(|| anyhow::anyhow!("tenant"))?;
        let idem_key = header(state, "idempotency-key").ok_or_else(|| anyhow::anyhow!("key"))?;
        let pk = bincode::serialize(&(tenant_id.as_str(), idem_key.as_str()))?;
        let out = self.ddb.get_item().table_name("ledger_dedup").key("pk", AttributeValue::B(pk.into())).send().await?;
        Ok(out.item().is_some())
    }

    pub async fn seen_adjustment(&self, state: &State) -> anyhow::Result<bool> {
        let tenant_id = header(state, "x-tenant-id").ok_or_else(|| anyhow::anyhow!("tenant"))?;
        let user_id = header(state, "x-user-id").ok_or_else(|| anyhow::anyhow!("user"))?;
        let idem_key = header(state, "idempotency-key").ok_or_else(|| anyhow::anyhow!("key"))?;
        let operation = "ledger.adjust";
        let pk = bincode::serialize(&(1u8, tenant_id.as_str(), user_id.as_str(), operation, idem_key.as_str()))?;
        let out = self.ddb.get_item().table_name("ledger_dedup").key("pk", AttributeValue::B(pk.into())).send().await?;
        Ok(out.item().is_some())
    }

    pub async fn owner_blob(&self, state: &State) -> anyhow::Result<Vec<u8>> {
        let tenant_id = header(state, "x-tenant-id").ok_or_else(|| anyhow::anyhow!("tenant"))?;
        let user_id = header(state, "x-user-id").ok_or_else(|| anyhow::anyhow!("user"))?;
        Ok(bincode::serialize(&Owner { tenant_id: &tenant_id, user_id: &user_id })?)
    }
}
