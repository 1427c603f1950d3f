//! Depot edge nodes keep a small rqlite cluster so validators can sync while
//! the WAN link is down. The schema goes in through rqlite's `/db/execute`.

use crate::edge::RqliteClient;

const STATEMENTS: &[&str] = &[
    r#"CREATE TABLE IF NOT EXISTS depot_tap_dedup (
        dedup_key    TEXT NOT NULL,
        tenant_id    TEXT NOT NULL,
        client_id    TEXT NOT NULL,
        route        TEXT NOT NULL,
        received_at  INTEGER NOT NULL,
        UNIQUE (tenant_id, dedup_key)
    ) STRICT"#,
    r#"CREATE TABLE IF NOT EXISTS depot_idempotency (
        tenant_id    TEXT NOT NULL,
        client_id    TEXT NOT NULL,
        route        TEXT NOT NULL,
        idem_key     TEXT NOT NULL,
        response     BLOB,
        PRIMARY KEY (tenant_id, client_id, route, idem_key)
    ) WITHOUT ROWID, STRICT"#,
    r#"CREATE INDEX IF NOT EXISTS depot_tap_dedup_received ON depot_tap_dedup (received_at)"#,
];

pub async fn migrate(client: &RqliteClient) -> anyhow::Result<()> {
    let body = serde_json::to_vec(STATEMENTS)?;
    let resp = client.post("/db/execute?transaction", body).await?;
    if let Some(err) = resp.results.iter().find_map(|r| r.error.as_deref()) {
        anyhow::bail!("rqlite migration failed: {err}");
    }
    Ok(())
}
