CREATE TABLE request_dedup (
    tenant_id    TEXT NOT NULL,
    request_key  TEXT NOT NULL,
    fingerprint  BYTEA NOT NULL,
    response     BYTEA,
    PRIMARY KEY (tenant_id, request_key)
);

CREATE TABLE webhook_replay (
    id           BIGSERIAL PRIMARY KEY,
    route        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    body         JSONB,
    CONSTRAINT webhook_replay_route_key UNIQUE (route, idem_key)
);

CREATE TABLE replay_log (
    tenant_id    TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    operation    TEXT NOT NULL,
    request_key  TEXT NOT NULL,
    response     BYTEA,
    UNIQUE (tenant_id, user_id, operation, request_key)
);
