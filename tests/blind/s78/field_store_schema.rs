//! Feldera pipeline program for read corrections: CSR corrections arrive
//! with the client's idempotency key and are upserted by primary key.

use std::time::Duration;

pub const CORRECTIONS_PROGRAM: &str = r#"
CREATE TABLE correction_idempotency (
    tenant_id   VARCHAR NOT NULL,
    idem_key    VARCHAR NOT NULL,
    response    VARCHAR,
    seen_at     TIMESTAMP NOT NULL LATENESS INTERVAL 1 HOUR,
    PRIMARY KEY (tenant_id, idem_key)
) WITH ('materialized' = 'true');

CREATE TABLE correction_dedup (
    tenant_id   VARCHAR NOT NULL,
    user_id     VARCHAR NOT NULL,
    route       VARCHAR NOT NULL,
    idem_key    VARCHAR NOT NULL,
    correction  VARCHAR NOT NULL,
    PRIMARY KEY (tenant_id, user_id, route, idem_key)
) WITH ('materialized' = 'true');

CREATE MATERIALIZED VIEW corrections_per_tenant AS
SELECT tenant_id, COUNT(*) AS corrections
FROM correction_dedup
GROUP BY tenant_id;
"#;

pub struct PipelineSpec {
    pub name: &'static str,
    pub program: &'static str,
    pub workers: u16,
    pub checkpoint_every: Duration,
}

pub fn corrections_pipeline() -> PipelineSpec {
    PipelineSpec {
        name: "read-corrections",
        program: CORRECTIONS_PROGRAM,
        workers: 4,
        checkpoint_every: Duration::from_secs(60),
    }
}

#[cfg(test)]
mod tests {
    const FIXTURE: &str = "CREATE TABLE correction_replay (idem_key VARCHAR PRIMARY KEY, body VARCHAR)";

    #[test]
    fn program_mentions_both_tables() {
        assert!(super::CORRECTIONS_PROGRAM.contains("correction_dedup"));
        assert!(FIXTURE.contains("PRIMARY KEY"));
    }
}
