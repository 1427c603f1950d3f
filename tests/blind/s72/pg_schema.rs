//! Schema for the invoicing service (PostgreSQL 16), applied at start-up by
//! granary's bootstrap.

use granary::sql::Conn;

pub const INVOICING_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS idempotency_requests (
    tenant_id   text        NOT NULL,
    route       text        NOT NULL,
    idem_key    text        NOT NULL,
    fingerprint bytea       NOT NULL,
    response    jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT idempotency_requests_pkey PRIMARY KEY (tenant_id, route, idem_key)
);
CREATE TABLE IF NOT EXISTS invoices (
    invoice_id  uuid PRIMARY KEY,
    tenant_id   text NOT NULL,
    total_minor bigint NOT NULL
);
";

pub async fn apply(conn: &Conn) -> anyhow::Result<()> {
    conn.batch(INVOICING_SCHEMA).await?;
    conn.batch(idem_scope::POSTGRES_SCHEMA).await?;
    Ok(())
}
