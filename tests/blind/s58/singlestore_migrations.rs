//! Ordered migrations for the SingleStore (MemSQL) event store.

pub struct Migration {
    pub id: u32,
    pub name: &'static str,
    pub sql: &'static str,
}

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        id: 1,
        name: "dedup_events",
        sql: "CREATE TABLE IF NOT EXISTS dedup_events (
            tenant_id   VARCHAR(64)  NOT NULL,
            dedup_key   VARCHAR(255) NOT NULL,
            payload     JSON,
            received_at DATETIME(6)  NOT NULL,
            SHARD KEY (dedup_key),
            PRIMARY KEY (dedup_key)
        )",
    },
    Migration {
        id: 2,
        name: "replay_tokens",
        sql: "CREATE TABLE IF NOT EXISTS replay_tokens (
            id          BIGINT AUTO_INCREMENT PRIMARY KEY,
            tenant_id   VARCHAR(64)  NOT NULL,
            user_id     VARCHAR(64)  NOT NULL,
            replay_key  VARCHAR(255) NOT NULL,
            issued_at   DATETIME(6)  NOT NULL,
            SHARD KEY (id)
        );
        CREATE UNIQUE INDEX ux_replay_tokens_key ON replay_tokens (user_id, replay_key);
        ",
    },
    Migration {
        id: 3,
        name: "idempotency_log",
        sql: "CREATE TABLE IF NOT EXISTS idempotency_log (
            tenant_id    VARCHAR(64)  NOT NULL,
            principal_id VARCHAR(64)  NOT NULL,
            route        VARCHAR(128) NOT NULL,
            idem_key     VARCHAR(255) NOT NULL,
            response     LONGBLOB,
            SHARD KEY (tenant_id),
            PRIMARY KEY (tenant_id, principal_id, route, idem_key)
        )",
    },
];

pub fn pending(applied: &[u32]) -> impl Iterator<Item = &'static Migration> + '_ {
    MIGRATIONS.iter().filter(move |m| !applied.contains(&m.id))
}
