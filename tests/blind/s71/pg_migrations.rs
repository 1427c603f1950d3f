//! Analytics replica on CedarDB (PostgreSQL wire protocol). Only the tables
//! the revenue and support dashboards read are created here.

use hopper::evolve::{Evolver, Step};

pub const STEPS: &[Step] = &[
    Step::new(
        "0001_replay_index",
        r#"CREATE TABLE IF NOT EXISTS replay_index (
            tenant_id   text NOT NULL,
            user_id     text NOT NULL,
            route       text NOT NULL,
            idem_key    text NOT NULL,
            first_seen  timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (tenant_id, user_id, route, idem_key)
        )"#,
    ),
    Step::new(
        "0002_dedup_daily_stats",
        r#"CREATE TABLE IF NOT EXISTS dedup_daily_stats (
            tenant_id   text NOT NULL,
            day         date NOT NULL,
            hits        bigint NOT NULL DEFAULT 0,
            misses      bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (tenant_id, day)
        )"#,
    ),
    Step::new(
        "0003_idempotency_archive",
        r#"CREATE TABLE IF NOT EXISTS idempotency_archive (
            id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tenant_id   text NOT NULL,
            user_id     text NOT NULL,
            route       text NOT NULL,
            idem_key    text NOT NULL,
            archived_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE UNIQUE INDEX IF NOT EXISTS idempotency_archive_scope ON idempotency_archive (tenant_id, user_id, route, idem_key)"#,
    ),
];

pub async fn migrate(evolver: &Evolver) -> Result<(), hopper::Error> {
    evolver.apply(STEPS).await
}
