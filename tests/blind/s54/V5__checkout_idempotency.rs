//! Rust-side refinery migration: the checkout service keeps its own
//! idempotency table because it runs in a separate schema.

use std::env;

fn schema() -> String {
    env::var("CHECKOUT_SCHEMA").unwrap_or_else(|_| "checkout".to_owned())
}

fn retention_days() -> u32 {
    env::var("CHECKOUT_IDEM_RETENTION_DAYS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7)
}

pub fn migration() -> String {
    let schema = schema();
    let days = retention_days();
    format!(
        r#"
CREATE SCHEMA IF NOT EXISTS {schema};

CREATE TABLE {schema}.checkout_idempotency (
    route          TEXT        NOT NULL,
    idem_key       TEXT        NOT NULL,
    cart_id        TEXT        NOT NULL,
    request_digest BYTEA       NOT NULL,
    status         TEXT        NOT NULL DEFAULT 'in_progress',
    response       JSONB,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (route, idem_key)
);

CREATE TABLE {schema}.carts (
    cart_id        TEXT PRIMARY KEY,
    tenant_id      TEXT NOT NULL,
    owner_id       TEXT NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);

COMMENT ON TABLE {schema}.checkout_idempotency IS 'rows expire after {days} days';
"#
    )
}
