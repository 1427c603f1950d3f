-- H2 2.x: embedded stores for the desktop sync agent.

CREATE CACHED TABLE IF NOT EXISTS idempotency_records (
    scope_version  VARCHAR(8)                NOT NULL,
    tenant_id      VARCHAR(64)               NOT NULL,
    principal_id   VARCHAR(64)               NOT NULL,
    route          VARCHAR(128)              NOT NULL,
    ns             VARCHAR(2)                NOT NULL,
    idem_key       VARCHAR(255)              NOT NULL,
    fingerprint    BINARY VARYING(32)        NOT NULL,
    status         VARCHAR(16)               NOT NULL,
    response       BINARY LARGE OBJECT,
    expires_at     TIMESTAMP WITH TIME ZONE  NOT NULL,
    CONSTRAINT idempotency_records_pk PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE MEMORY TABLE IF NOT EXISTS job_dedup (
    job_key      VARCHAR(255)              NOT NULL,
    queue        VARCHAR(64)               NOT NULL,
    finished_at  TIMESTAMP WITH TIME ZONE
);

CREATE UNIQUE INDEX IF NOT EXISTS job_dedup_key_uidx ON job_dedup (job_key);

CREATE CACHED TABLE IF NOT EXISTS replay_tokens (
    tenant_id   VARCHAR(64)   NOT NULL,
    user_id     VARCHAR(64)   NOT NULL,
    route       VARCHAR(128)  NOT NULL,
    token       VARCHAR(255)  NOT NULL,
    issued_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT replay_tokens_uq UNIQUE (tenant_id, user_id, route, token)
);

CREATE INDEX IF NOT EXISTS replay_tokens_issued_idx ON replay_tokens (issued_at);

CREATE CACHED TABLE IF NOT EXISTS sync_cursors (
    tenant_id     VARCHAR(64)               NOT NULL,
    device_id     VARCHAR(64)               NOT NULL,
    cursor_value  BIGINT                    NOT NULL,
    updated_at    TIMESTAMP WITH TIME ZONE  NOT NULL,
    CONSTRAINT sync_cursors_pk PRIMARY KEY (tenant_id, device_id)
);

COMMENT ON TABLE idempotency_records IS 'one row per (scope, key); response kept until expires_at';
COMMENT ON TABLE job_dedup IS 'finished background jobs';
