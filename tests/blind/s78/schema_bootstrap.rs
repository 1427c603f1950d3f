//! Schema bootstrap for the portal's versioned configuration database
//! (DoltgreSQL, PostgreSQL wire protocol). Each statement is committed as a
//! Dolt commit so schema history can be diffed per district.

use aquifer::basin::Basin;

const REPLAY_RESPONSES: &str = "
CREATE TABLE IF NOT EXISTS replay_responses (
    idem_key    text PRIMARY KEY,
    tenant_id   text NOT NULL,
    status      smallint NOT NULL,
    body        bytea
)";

const CHECKOUT_IDEMPOTENCY: &str = r#"
CREATE TABLE IF NOT EXISTS checkout_idempotency (
    tenant_id   text NOT NULL,
    user_id     text NOT NULL,
    route       text NOT NULL,
    idem_key    text NOT NULL,
    fingerprint bytea NOT NULL,
    response    bytea,
    PRIMARY KEY (tenant_id, user_id, route, idem_key)
)"#;

const TRANSFER_DEDUP: &str = "
CREATE TABLE IF NOT EXISTS transfer_dedup (
    id          bigserial PRIMARY KEY,
    tenant_id   text NOT NULL,
    user_id     text NOT NULL,
    idem_key    text NOT NULL,
    response    bytea
);
CREATE UNIQUE INDEX IF NOT EXISTS transfer_dedup_key ON transfer_dedup (tenant_id, idem_key);
";

pub async fn bootstrap(basin: &Basin) -> Result<(), aquifer::BasinError> {
    for ddl in [REPLAY_RESPONSES, CHECKOUT_IDEMPOTENCY, TRANSFER_DEDUP] {
        basin.batch(ddl).await?;
        basin
            .sql("SELECT dolt_commit('-Am', $1)")
            .bind(format!("bootstrap: {}", ddl.lines().nth(1).unwrap_or_default().trim()))
            .exec()
            .await?;
    }
    Ok(())
}
