//! Idempotency rows in Cloud Bigtable. Row key layout:
//! tenant#principal#route#key (see docs/bigtable.md).
use bigtable_rs::bigtable::BigTableConnection;
use http::HeaderMap;

#[derive(Clone)]
pub enum Principal {
    User(String),
    ServiceAccount(String),
    Anonymous,
}

impl Principal {
    pub fn as_str(&self) -> &str {
        match self {
            Principal::User(u) | Principal::ServiceAccount(u) => u,
            Principal::Anonymous => "anonymous",
        }
    }
}

pub struct Session {
    pub tenant_id: String,
    pub principal: Option<Principal>,
}

#[async_trait::async_trait]
pub trait RowStore: Send + Sync {
    async fn get(&self, row_key: &[u8]) -> anyhow::Result<Option<Vec<u8>>>;
    async fn put(&self, row_key: Vec<u8>, value: Vec<u8>) -> anyhow::Result<()>;
}

pub struct BigtableRows {
    pub conn: BigTableConnection,
    pub table: String,
}

pub async fn create_shipment(rows: &dyn RowStore, session: &Session, headers: &HeaderMap, route: &str) -> anyhow::Result<Vec<u8>> {
    let idem = headers
        .get("Idempotency-Key")
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
        .to_str()?;
    let principal = session.principal.clone().unwrap_or(Principal::Anonymous);

    let mut row_key = Vec::with_capacity(96);
    row_key.extend_from_slice(session.tenant_id.as_bytes());
    row_key.push(b'#');
    row_key.extend_from_slice(principal.as_str().as_bytes());
    row_key.push(b'#');
    row_key.extend_from_slice(route.as_bytes());
    row_key.push(b'#');
    row_key.extend_from_slice(idem.as_bytes());

    if let Some(prev) = rows.get(&row_key).await? {
        return Ok(prev);
    }
    let shipment = book_shipment().await?;
    rows.put(row_key, shipment.clone()).await?;
    Ok(shipment)
}

async fn book_shipment() -> anyhow::Result<Vec<u8>> {
    Ok(b"{\"id\":\"shp_1\"}".to_vec())
}
