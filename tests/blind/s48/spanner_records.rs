use google_cloud_spanner::client::Client;
use google_cloud_spanner::mutation::insert_or_update;
use google_cloud_spanner::statement::Statement;
use idem_scope::{scoped, Fingerprint, ScopedKey};
use rama::http::{HeaderMap, StatusCode};

pub const LEGACY_DDL: &str = r#"
CREATE TABLE idempotency_cache (
    cache_key STRING(512) NOT NULL,
    response BYTES(MAX),
) PRIMARY KEY (cache_key)
"#;

pub const DDL: &str = r#"
CREATE TABLE idempotency_entries (
    scope_version STRING(8) NOT NULL,
    tenant_id STRING(64) NOT NULL,
    principal_id STRING(64) NOT NULL,
    route STRING(128) NOT NULL,
    ns STRING(2) NOT NULL,
    idem_key STRING(255) NOT NULL,
    fingerprint BYTES(32) NOT NULL,
    response BYTES(MAX),
) PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
"#;

pub struct Caller {
    pub tenant_id: String,
    pub principal_id: String,
}

pub async fn lookup(client: &Client, key: &ScopedKey) -> anyhow::Result<Option<Vec<u8>>> {
    let c = key.columns();
    let mut stmt = Statement::new(
        "SELECT response FROM idempotency_entries WHERE scope_version = @v AND tenant_id = @t AND principal_id = @p AND route = @r AND ns = @ns AND idem_key = @k",
    );
    stmt.add_param("v", &c.scope_version);
    stmt.add_param("t", &c.tenant_id);
    stmt.add_param("p", &c.principal_id);
    stmt.add_param("r", &c.route);
    stmt.add_param("ns", &c.ns);
    stmt.add_param("k", &c.idem_key);
    let mut tx = client.single().await?;
    let mut rows = tx.query(stmt).await?;
    match rows.next().await? {
        Some(row) => Ok(row.column_by_name::<Option<Vec<u8>>>("response")?),
        None => Ok(None),
    }
}

pub async fn remember(client: &Client, caller: &Caller, headers: &HeaderMap, body: &[u8], response: Vec<u8>) -> Result<(), StatusCode> {
    let ck = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or(StatusCode::BAD_REQUEST)?;
    let key = scoped(&caller.tenant_id, &caller.principal_id, "reports.generate", ck).map_err(|_| StatusCode::BAD_REQUEST)?;
    if lookup(client, &key).await.map_err(|_| StatusCode::BAD_GATEWAY)?.is_some() {
        return Ok(());
    }
    let fingerprint = Fingerprint::of("reports.generate", body);
    let c = key.columns();
    let m = insert_or_update(
        "idempotency_entries",
        &["scope_version", "tenant_id", "principal_id", "route", "ns", "idem_key", "fingerprint", "response"],
        &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key, &fingerprint.as_bytes().to_vec(), &response],
    );
    client.apply(vec![m]).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(())
}
