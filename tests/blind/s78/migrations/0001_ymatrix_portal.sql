-- YMatrix 5.2 (Greenplum-derived MPP): customer-portal idempotency storage.
-- MARS3 tables need an ORDER BY sort key; distribution follows the tenant.

CREATE TABLE idempotency_records (
    scope_version  text        NOT NULL,
    tenant_id      text        NOT NULL,
    principal_id   text        NOT NULL,
    route          text        NOT NULL,
    ns             text        NOT NULL,
    idem_key       text        NOT NULL,
    fingerprint    bytea       NOT NULL,
    status         text        NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response       bytea,
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)
USING mars3
WITH (compresstype = zstd, compresslevel = 1)
DISTRIBUTED BY (tenant_id)
ORDER BY (tenant_id, principal_id, route, idem_key);

CREATE INDEX idempotency_records_expiry ON idempotency_records USING mars3_brin (expires_at);

-- Lobby kiosk replies, kept for 15 minutes so a kiosk can reprint a receipt.
CREATE TABLE kiosk_replay_cache (
    idem_key    text        NOT NULL,
    tenant_id   text        NOT NULL,
    response    bytea,
    stored_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, idem_key)
)
USING mars3
DISTRIBUTED BY (tenant_id)
ORDER BY (tenant_id, idem_key);

-- Keys the portal's outbound calls to the processor used (not an idempotency store).
CREATE TABLE processor_request_keys (
    request_key  text        PRIMARY KEY,
    sent_at      timestamptz NOT NULL DEFAULT now()
)
USING heap
DISTRIBUTED BY (request_key);

CREATE VIEW kiosk_replay_daily WITH (CONTINUOUS) AS
SELECT tenant_id, date_trunc('day', stored_at) AS day, count(*) AS replies
FROM kiosk_replay_cache
GROUP BY 1, 2;
