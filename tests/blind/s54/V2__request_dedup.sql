-- refinery migration V2: request de-duplication for the public API

CREATE TABLE request_dedup (
    id            BIGSERIAL PRIMARY KEY,
    org_id        TEXT NOT NULL,
    client_key    TEXT NOT NULL,
    payload_sha   BYTEA NOT NULL,
    state         TEXT NOT NULL,
    reply         JSONB,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT request_dedup_org_key UNIQUE (org_id, client_key)
);

CREATE TABLE outbox_messages (
    message_id    UUID PRIMARY KEY,
    topic         TEXT NOT NULL,
    payload       JSONB NOT NULL,
    published_at  TIMESTAMPTZ
);

CREATE TABLE idempotency_records (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL CHECK (ns IN ('u:', 's:')),
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    status        TEXT NOT NULL,
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
