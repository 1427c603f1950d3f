use idem_scope::{scoped, Fingerprint, ScopedKey};
use tokio_rusqlite::{params, Connection};

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BLOB NOT NULL,
    status        TEXT NOT NULL,
    response      BLOB,
    created_at    INTEGER NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
"#;

pub struct Exports {
    conn: Connection,
    renderer: reports::Renderer,
}

fn owned_cols(sk: &ScopedKey) -> [String; 6] {
    let c = sk.columns();
    [c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key].map(str::to_owned)
}

impl Exports {
    pub async fn migrate(&self) -> tokio_rusqlite::Result<()> {
        self.conn.call(|c| c.execute_batch(SCHEMA).map_err(Into::into)).await
    }

    pub async fn run_export(&self, tenant: &str, user: &str, client_key: &str, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(tenant, user, "reports.export", client_key)?;
        let fingerprint = Fingerprint::of("reports.export", body).as_bytes().to_vec();
        let cols = owned_cols(&sk);

        let claim_cols = cols.clone();
        self.conn
            .call(move |c| {
                c.execute("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, \
                     fingerprint, status, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'in_progress', unixepoch())",
                    params![claim_cols[0], claim_cols[1], claim_cols[2], claim_cols[3], claim_cols[4], claim_cols[5], fingerprint],
                )
                .map_err(Into::into)
            })
            .await?;

        let spec: reports::Spec = serde_json::from_slice(body)?;
        let rendered = self.renderer.render(tenant, &spec).await?;

        let out = rendered.clone();
        self.conn
            .call(move |c| {
                c.execute(
                    "UPDATE idempotency_records SET status = 'completed', response = ?7 \
                     WHERE scope_version = ?1 AND tenant_id = ?2 AND principal_id = ?3 AND route = ?4 AND ns = ?5 AND idem_key = ?6",
                    params![cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], out],
                )
                .map_err(Into::into)
            })
            .await?;
        Ok(rendered)
    }
}
