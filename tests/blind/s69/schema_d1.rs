//! Schema for the edge replay cache (Cloudflare D1, SQLite dialect),
//! applied by the deploy tool through `garner::migrate`.

use garner::migrate::{Migrator, Step};

pub const EDGE_REPLAY_V1: &str = r#"
CREATE TABLE IF NOT EXISTS edge_replay (
    user_id     TEXT NOT NULL,
    route       TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    status      INTEGER NOT NULL,
    body        BLOB,
    expires_at  INTEGER NOT NULL,
    UNIQUE (user_id, route, idem_key)
) STRICT;
"#;

pub const EDGE_REPLAY_V2: &str = r#"
CREATE TABLE IF NOT EXISTS edge_replay_v2 (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BLOB NOT NULL,
    status        INTEGER NOT NULL,
    body          BLOB,
    expires_at    INTEGER NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) WITHOUT ROWID, STRICT;
CREATE INDEX IF NOT EXISTS edge_replay_v2_exp ON edge_replay_v2 (expires_at);
"#;

pub const EDGE_SESSIONS: &str = "CREATE TABLE IF NOT EXISTS edge_sessions (token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT;";

pub fn migrator() -> Migrator {
    Migrator::new("edge")
        .step(Step::sql(1, EDGE_REPLAY_V1))
        .step(Step::sql(2, EDGE_REPLAY_V2))
        .step(Step::sql(3, EDGE_SESSIONS))
}
