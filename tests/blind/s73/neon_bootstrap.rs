//! Bootstraps the Postgres (Neon) schema for the co-op API. The scoped
//! idempotency table comes from idem-scope; the two others are ours.

use bushel::rows::Pool;

const OURS: &str = "
CREATE TABLE IF NOT EXISTS replay_audit (
    id          bigserial PRIMARY KEY,
    org_id      text NOT NULL,
    user_id     text NOT NULL,
    route       text NOT NULL,
    idem_key    text NOT NULL,
    outcome     text NOT NULL,
    logged_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (org_id, user_id, route, idem_key)
);
CREATE INDEX IF NOT EXISTS replay_audit_key ON replay_audit (idem_key);

CREATE TABLE IF NOT EXISTS dedup_exports (
    id          bigserial PRIMARY KEY,
    org_id      text NOT NULL,
    idem_key    text NOT NULL,
    export_uri  text NOT NULL,
    UNIQUE (org_id, idem_key)
);
";

pub async fn bootstrap(pool: &Pool) -> Result<(), bushel::Error> {
    pool.run_script(idem_scope::POSTGRES_SCHEMA).await?;
    pool.run_script(OURS).await?;
    Ok(())
}
