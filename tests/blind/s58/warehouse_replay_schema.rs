//! DDL for the Snowflake replay mirror; executed by the deploy job through the SQL API.

use serde_json::json;

pub const REPLAY_GUARD_DDL: &str = "CREATE TABLE IF NOT EXISTS analytics.replay_guard (
    account_id   VARCHAR(64)   NOT NULL,
    request_key  VARCHAR(255)  NOT NULL,
    payload      VARIANT,
    loaded_at    TIMESTAMP_NTZ NOT NULL DEFAULT CURRENT_TIMESTAMP(),
    CONSTRAINT replay_guard_uq UNIQUE (request_key)
)";

pub const IDEMPOTENCY_MIRROR_DDL: &str = "CREATE TABLE IF NOT EXISTS analytics.idempotency_mirror (
    scope_version VARCHAR(8)   NOT NULL,
    account_id    VARCHAR(64)  NOT NULL,
    api_key_id    VARCHAR(64)  NOT NULL,
    endpoint      VARCHAR(128) NOT NULL,
    ns            VARCHAR(2)   NOT NULL,
    idem_key      VARCHAR(255) NOT NULL,
    status        VARCHAR(16),
    CONSTRAINT idempotency_mirror_pk PRIMARY KEY (scope_version, account_id, api_key_id, endpoint, ns, idem_key)
)";

pub fn statements_request(warehouse: &str) -> serde_json::Value {
    json!({
        "statement": [REPLAY_GUARD_DDL, IDEMPOTENCY_MIRROR_DDL].join(";\n"),
        "warehouse": warehouse,
        "timeout": 60,
        "parameters": { "MULTI_STATEMENT_COUNT": "2" }
    })
}

#[cfg(test)]
mod tests {
    pub const SCRATCH_DDL: &str = "CREATE TEMPORARY TABLE scratch_dedup (
        dedup_key VARCHAR(255) PRIMARY KEY
    )";

    #[test]
    fn request_mentions_both_tables() {
        let body = super::statements_request("LOAD_WH").to_string();
        assert!(body.contains("replay_guard") && body.contains("idempotency_mirror"));
        assert!(SCRATCH_DDL.contains("scratch_dedup"));
    }
}
