-- Replay cache for mobile clients; v2 adds the full scope.
CREATE TABLE replay_cache (
    id          BIGSERIAL PRIMARY KEY,
    tenant_id   TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    response    BYTEA,
    expires_at  TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX replay_cache_key_uq ON replay_cache (tenant_id, idem_key);

CREATE TABLE replay_cache_v2 (
    id            BIGSERIAL PRIMARY KEY,
    scope_version TEXT NOT NULL DEFAULT 'v1',
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL DEFAULT 'u:',
    idem_key      TEXT NOT NULL,
    response      BYTEA,
    expires_at    TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX replay_cache_v2_key_uq ON replay_cache_v2 (scope_version, tenant_id, principal_id, route, ns, idem_key);
