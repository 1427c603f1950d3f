-- Cloud Spanner, PostgreSQL interface. Row deletion via TTL on expires_at.
-- Spanner-PG requires the PRIMARY KEY inside the column list.

CREATE TABLE idempotency_keys (
    idem_key     varchar(255) NOT NULL,
    org_id       varchar(64)  NOT NULL,
    user_id      varchar(64)  NOT NULL,
    route        varchar(128) NOT NULL,
    fingerprint  bytea,
    status       varchar(16)  NOT NULL,
    response     bytea,
    expires_at   timestamptz  NOT NULL,
    PRIMARY KEY (idem_key)
) TTL INTERVAL '2 days' ON expires_at;

CREATE UNIQUE INDEX idempotency_keys_by_user ON idempotency_keys (user_id, idem_key);

CREATE TABLE idempotency_scopes (
    scope_version varchar(4)   NOT NULL,
    org_id        varchar(64)  NOT NULL,
    user_id       varchar(64)  NOT NULL,
    route         varchar(128) NOT NULL,
    ns            varchar(2)   NOT NULL,
    idem_key      varchar(255) NOT NULL,
    fingerprint   bytea        NOT NULL,
    status        varchar(16)  NOT NULL,
    response      bytea,
    expires_at    timestamptz  NOT NULL,
    PRIMARY KEY (scope_version, org_id, user_id, route, ns, idem_key)
) TTL INTERVAL '1 day' ON expires_at;

CREATE INDEX idempotency_scopes_expiry ON idempotency_scopes (expires_at) INCLUDE (status);
