CREATE TABLE replay_protection (
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL DEFAULT 'u:',
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    CONSTRAINT replay_protection_pk PRIMARY KEY (tenant_id, principal_id, route, ns, idem_key)
);

CREATE UNIQUE INDEX replay_protection_response_idx ON replay_protection (tenant_id, principal_id, route, ns, idem_key, fingerprint);

CREATE INDEX replay_protection_route_idx ON replay_protection (route);
