-- ledger-api: request de-duplication

CREATE TABLE IF NOT EXISTS dedup_requests (
    tenant_id     UUID         NOT NULL,
    request_key   VARCHAR(255) NOT NULL,
    status        VARCHAR(16)  NOT NULL DEFAULT 'in_progress',
    response      JSONB,
    locked_until  TIMESTAMPTZ,
    created_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, request_key)
);

CREATE INDEX IF NOT EXISTS dedup_requests_locked_until_idx
    ON dedup_requests (locked_until)
    WHERE status = 'in_progress';

CREATE TABLE IF NOT EXISTS journal_entries (
    id           UUID        PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id    UUID        NOT NULL,
    external_ref TEXT        NOT NULL,
    posted_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT journal_entries_external_ref_uq UNIQUE (tenant_id, external_ref)
);

COMMENT ON TABLE dedup_requests IS 'one row per client request key; swept after 48 hours';
COMMENT ON COLUMN dedup_requests.locked_until IS 'lease of the worker currently executing the request';
