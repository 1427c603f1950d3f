-- ClickHouse 24.3: replay log for the channel-manager gateway.
-- ReplacingMergeTree keeps the newest row per sorting key.

CREATE TABLE IF NOT EXISTS channel_replay_log
(
    idem_key     String,
    response     String CODEC(ZSTD(3)),
    status_code  UInt16,
    created_at   DateTime64(3) DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(created_at)
PRIMARY KEY (idem_key)
ORDER BY (idem_key, created_at)
TTL toDateTime(created_at) + INTERVAL 1 DAY
SETTINGS index_granularity = 8192;

CREATE TABLE IF NOT EXISTS idempotency_responses
(
    scope_version LowCardinality(String),
    tenant_id     String,
    principal_id  String,
    route         LowCardinality(String),
    ns            LowCardinality(String),
    idem_key      String,
    fingerprint   FixedString(32),
    response      String,
    created_at    DateTime64(3) DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(created_at)
PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
ORDER BY (scope_version, tenant_id, principal_id, route, ns, idem_key)
TTL toDateTime(created_at) + INTERVAL 1 DAY;

CREATE TABLE IF NOT EXISTS rate_push_events
(
    event_id   UUID,
    tenant_id  String,
    payload    String
)
ENGINE = MergeTree
PRIMARY KEY (event_id)
ORDER BY event_id;
