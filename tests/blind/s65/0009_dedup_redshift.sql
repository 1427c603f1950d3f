-- Amazon Redshift (RA3), analytics schema; constraints are informational

CREATE TABLE IF NOT EXISTS analytics.dedup_events (
    tenant_id   VARCHAR(64)  NOT NULL ENCODE zstd,
    user_id     VARCHAR(64)  NOT NULL ENCODE zstd,
    dedup_key   VARCHAR(255) NOT NULL ENCODE zstd,
    event_type  VARCHAR(64)           ENCODE bytedict,
    seen_at     TIMESTAMPTZ  DEFAULT GETDATE(),
    PRIMARY KEY (tenant_id, user_id, dedup_key)
)
DISTSTYLE KEY DISTKEY (tenant_id)
COMPOUND SORTKEY (tenant_id, seen_at);

CREATE TABLE IF NOT EXISTS analytics.idempotent_responses (
    tenant_id    VARCHAR(64)  NOT NULL,
    user_id      VARCHAR(64)  NOT NULL,
    action       VARCHAR(64)  NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    status_code  SMALLINT,
    body         SUPER,
    created_at   TIMESTAMPTZ DEFAULT GETDATE(),
    PRIMARY KEY (tenant_id, user_id, action, idem_key)
)
DISTKEY (tenant_id)
SORTKEY (created_at);

CREATE TABLE IF NOT EXISTS analytics.replay_offsets (
    stream_name     VARCHAR(128) NOT NULL,
    shard_id        VARCHAR(64)  NOT NULL,
    sequence_number VARCHAR(128),
    updated_at      TIMESTAMPTZ DEFAULT GETDATE(),
    PRIMARY KEY (stream_name, shard_id)
)
DISTSTYLE ALL;

CREATE OR REPLACE VIEW analytics.v_dedup_daily AS
SELECT tenant_id,
       DATE_TRUNC('day', seen_at) AS day,
       COUNT(*)                   AS events,
       COUNT(DISTINCT dedup_key)  AS distinct_keys
  FROM analytics.dedup_events
 GROUP BY 1, 2;

GRANT SELECT ON analytics.v_dedup_daily TO GROUP bi_readers;
