//! `pg_replay`: a small Postgres extension that keeps API replay records next
//! to the ledger tables, so the ledger write and the record commit together.

use idem_scope::{scoped, Fingerprint};
use pgrx::prelude::*;
use pgrx::spi::SpiResult;

pgrx::pg_module_magic!();

extension_sql!(
    r#"
CREATE TABLE replay.idempotency_records (
    scope_version text        NOT NULL,
    tenant_id     text        NOT NULL,
    principal_id  text        NOT NULL,
    route         text        NOT NULL,
    ns            text        NOT NULL,
    idem_key      text        NOT NULL,
    fingerprint   bytea       NOT NULL,
    status        text        NOT NULL,
    response      bytea,
    expires_at    timestamptz NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE TABLE replay.dedup_webhooks (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id     text   NOT NULL,
    user_id       text   NOT NULL,
    route         text   NOT NULL,
    dedup_key     text   NOT NULL,
    received_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, user_id, route, dedup_key)
);
"#,
    name = "replay_tables"
);

/// Fingerprint helper exposed to SQL so triggers can compare payloads.
#[pg_extern(immutable, parallel_safe)]
fn replay_fingerprint(route: &str, body: &[u8]) -> Vec<u8> {
    Fingerprint::of(route, body).as_bytes().to_vec()
}

/// Looks a completed response up by its scope; NULL when none is stored.
#[pg_extern]
fn replay_lookup(tenant_id: &str, user_id: &str, route: &str, client_key: &str) -> SpiResult<Option<Vec<u8>>> {
    let Ok(sk) = scoped(tenant_id, user_id, route, client_key) else {
        return Ok(None);
    };
    let c = sk.columns();
    Spi::get_one_with_args::<Vec<u8>>(
        "SELECT response FROM replay.idempotency_records \
         WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6 AND status = 'completed'",
        vec![
            (PgBuiltInOids::TEXTOID.oid(), c.scope_version.into_datum()),
            (PgBuiltInOids::TEXTOID.oid(), c.tenant_id.into_datum()),
            (PgBuiltInOids::TEXTOID.oid(), c.principal_id.into_datum()),
            (PgBuiltInOids::TEXTOID.oid(), c.route.into_datum()),
            (PgBuiltInOids::TEXTOID.oid(), c.ns.into_datum()),
            (PgBuiltInOids::TEXTOID.oid(), c.idem_key.into_datum()),
        ],
    )
}
