use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use idem_scope::{scoped, Fingerprint, ScopedKey};
use sha3::{Digest, Sha3_256};
use trillium::{Conn, Status};

pub struct DynamoIdem {
    pub ddb: Client,
    pub table: String,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreErr {
    #[error("dynamo: {0}")]
    Dynamo(String),
    #[error("downstream: {0}")]
    Downstream(String),
}

fn pk_for(sk: &ScopedKey) -> String {
    hex::encode(Sha3_256::digest(sk.storage_key().as_bytes()))
}

impl DynamoIdem {
    pub async fn lookup(&self, sk: &ScopedKey) -> Result<Option<String>, StoreErr> {
        let out = self
            .ddb
            .get_item()
            .table_name(&self.table)
            .key("pk", AttributeValue::S(pk_for(sk)))
            .send()
            .await
            .map_err(|e| StoreErr::Dynamo(e.to_string()))?;
        Ok(out.item().and_then(|i| i.get("response")).and_then(|v| v.as_s().ok()).cloned())
    }

    pub async fn execute_once(&self, sk: &ScopedKey, fp: &Fingerprint, body: &[u8]) -> Result<String, StoreErr> {
        let pk = pk_for(sk);
        self.ddb.put_item().table_name(&self.table).item("pk", AttributeValue::S(pk.clone())).item("status", AttributeValue::S("in_progress".into())).item("fingerprint", AttributeValue::B(fp.as_bytes().to_vec().into())).condition_expression("attribute_not_exists(pk)").send().await.map_err(|e| StoreErr::Dynamo(e.to_string()))?;

        let response = call_ledger(body).await.map_err(StoreErr::Downstream)?;

        self.ddb
            .put_item()
            .table_name(&self.table)
            .item("pk", AttributeValue::S(pk))
            .item("status", AttributeValue::S("completed".into()))
            .item("response", AttributeValue::S(response.clone()))
            .send()
            .await
            .map_err(|e| StoreErr::Dynamo(e.to_string()))?;
        Ok(response)
    }
}

async fn call_ledger(_body: &[u8]) -> Result<String, String> {
    Ok("{\"posted\":true}".into())
}

pub async fn post_entry(mut conn: Conn, idem: &DynamoIdem) -> Conn {
    let hdrs = conn.request_headers();
    let (Some(tenant), Some(principal), Some(k)) = (hdrs.get_str("x-tenant-id").map(str::to_owned), hdrs.get_str("x-principal-id").map(str::to_owned), hdrs.get_str("Idempotency-Key").map(str::to_owned)) else {
        return conn.with_status(Status::BadRequest);
    };
    let Ok(sk) = scoped(&tenant, &principal, "ledger.post", &k) else {
        return conn.with_status(Status::BadRequest);
    };
    let body = conn.request_body().await.read_bytes().await.unwrap_or_default();
    let fp = Fingerprint::of("ledger.post", &body);
    if let Ok(Some(prev)) = idem.lookup(&sk).await {
        return conn.with_status(Status::Ok).with_body(prev);
    }
    match idem.execute_once(&sk, &fp, &body).await {
        Ok(r) => conn.with_status(Status::Created).with_body(r),
        Err(_) => conn.with_status(Status::BadGateway),
    }
}
