//! Syndication schema on the Splice Machine 3.1 cluster (Derby-style SQL on
//! HBase). Statements run one by one through the JDBC bridge at start-up.

use crate::bridge::SpliceBridge;

pub const SYNDICATION_DDL: &[&str] = &[
    "CREATE SCHEMA syndication",
    "CREATE TABLE syndication.syndication_dedup (
        org_id      VARCHAR(64)  NOT NULL,
        route       VARCHAR(128) NOT NULL,
        idem_key    VARCHAR(255) NOT NULL,
        response    BLOB(1M),
        created_at  TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
        PRIMARY KEY (org_id, route, idem_key)
    )",
    "CREATE TABLE syndication.syndication_replay_v2 (
        scope_version CHAR(2)      NOT NULL,
        org_id        VARCHAR(64)  NOT NULL,
        user_id       VARCHAR(64)  NOT NULL,
        route         VARCHAR(128) NOT NULL,
        ns            CHAR(2)      NOT NULL,
        idem_key      VARCHAR(255) NOT NULL,
        fingerprint   CHAR(64)     NOT NULL,
        response      BLOB(1M),
        PRIMARY KEY (scope_version, org_id, user_id, route, ns, idem_key)
    )",
    "CALL SYSCS_UTIL.SYSCS_SPLIT_TABLE_OR_INDEX('SYNDICATION', 'SYNDICATION_REPLAY_V2', null, 'ORG_ID', '/tmp/splitkeys.csv', null, null, null, null, null, -1, '/tmp/bad', true, null)",
];

pub async fn bootstrap(bridge: &SpliceBridge) -> Result<(), crate::bridge::Error> {
    for stmt in SYNDICATION_DDL {
        if let Err(e) = bridge.execute(stmt).await {
            if e.sql_state() == Some("X0Y32") {
                tracing::debug!(statement = %stmt.lines().next().unwrap_or_default(), "already present");
                continue;
            }
            return Err(e);
        }
    }
    Ok(())
}
