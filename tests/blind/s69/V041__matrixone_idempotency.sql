-- MatrixOne 1.2 (MySQL-compatible, cloud-native HTAP)
-- Idempotency records for the public charging API.

CREATE DATABASE IF NOT EXISTS voltaic;
USE voltaic;

CREATE TABLE api_idempotency (
    idem_key      VARCHAR(255) NOT NULL,
    org_id        VARCHAR(64)  NOT NULL,
    user_id       VARCHAR(64)  NOT NULL,
    route         VARCHAR(128) NOT NULL,
    fingerprint   BINARY(32)   NOT NULL,
    status        VARCHAR(16)  NOT NULL DEFAULT 'in_progress',
    response      BLOB,
    created_at    DATETIME     NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (idem_key)
) CLUSTER BY (org_id, created_at);

CREATE TABLE api_idempotency_v2 (
    scope_version VARCHAR(8)   NOT NULL,
    org_id        VARCHAR(64)  NOT NULL,
    user_id       VARCHAR(64)  NOT NULL,
    route         VARCHAR(128) NOT NULL,
    ns            CHAR(2)      NOT NULL,
    idem_key      VARCHAR(255) NOT NULL,
    fingerprint   BINARY(32)   NOT NULL,
    status        VARCHAR(16)  NOT NULL,
    response      BLOB,
    expires_at    DATETIME     NOT NULL,
    PRIMARY KEY (scope_version, org_id, user_id, route, ns, idem_key)
) CLUSTER BY (org_id, expires_at);

CREATE INDEX idx_idem_v2_expiry ON api_idempotency_v2 (expires_at);

CREATE TABLE charge_sessions (
    session_id    VARCHAR(36)  NOT NULL,
    org_id        VARCHAR(64)  NOT NULL,
    client_key    VARCHAR(255),
    PRIMARY KEY (session_id)
);

CREATE TABLE replay_windows (
    org_id        VARCHAR(64)  NOT NULL,
    window_start  DATETIME     NOT NULL,
    replayed      INT          NOT NULL DEFAULT 0,
    PRIMARY KEY (org_id, window_start)
);
