//! Schema steps for the student portal's PostgreSQL 17 database (developers
//! run the same steps against PGlite in the browser test harness).

use satchel::migrate::{Migrator, Step};

pub const STEPS: &[Step] = &[
    Step::new(
        "0007_idempotency_ledger",
        r#"
        CREATE TABLE IF NOT EXISTS idempotency_ledger (
            scope_version  text        NOT NULL,
            tenant_id      text        NOT NULL,
            principal_id   text        NOT NULL,
            route          text        NOT NULL,
            ns             text        NOT NULL CHECK (ns IN ('u:', 's:')),
            idem_key       text        NOT NULL,
            state          text        NOT NULL DEFAULT 'in_progress',
            body           bytea,
            created_at     timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
        );
        "#,
    ),
    Step::new(
        "0008_badge_replay_cache",
        r#"
        CREATE TABLE IF NOT EXISTS badge_replay_cache (
            id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tenant_id      text        NOT NULL,
            route          text        NOT NULL,
            idem_key       text        NOT NULL,
            body           bytea,
            CONSTRAINT badge_replay_cache_key UNIQUE (tenant_id, route, idem_key)
        );
        "#,
    ),
    Step::new(
        "0009_refund_requests",
        r#"
        CREATE TABLE IF NOT EXISTS refund_requests (
            id             text        PRIMARY KEY DEFAULT gen_random_uuid()::text,
            tenant_id      text        NOT NULL,
            user_id        text        NOT NULL,
            term           text        NOT NULL,
            reason         text        NOT NULL
        );
        CREATE UNIQUE INDEX IF NOT EXISTS refund_requests_one_per_term ON refund_requests (tenant_id, user_id, term);
        "#,
    ),
];

pub async fn migrate(url: &str) -> anyhow::Result<()> {
    let migrator = Migrator::connect(url).await?;
    migrator.run(STEPS).await?;
    Ok(())
}
