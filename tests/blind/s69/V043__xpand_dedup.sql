-- MariaDB Xpand 6.1 (distributed SQL, formerly ClustrixDB).
-- Deduplication of fleet API writes; slices are distributed by tenant.

CREATE TABLE fleet_dedup (
    idempotency_key VARCHAR(255) NOT NULL PRIMARY KEY,
    account_id      VARCHAR(64)  NOT NULL,
    response_code   SMALLINT     NOT NULL,
    response_body   MEDIUMBLOB,
    created_at      TIMESTAMP    NOT NULL DEFAULT CURRENT_TIMESTAMP
) ENGINE=Xpand SLICES=12;

CREATE TABLE fleet_dedup_scoped (
    id              BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    account_id      VARCHAR(64)  NOT NULL,
    api_key_id      VARCHAR(64)  NOT NULL,
    endpoint        VARCHAR(128) NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    fingerprint     BINARY(32)   NOT NULL,
    response_body   MEDIUMBLOB,
    UNIQUE KEY uq_scope (account_id, api_key_id, endpoint, idempotency_key)
) ENGINE=Xpand SLICES=12 DISTRIBUTE=1;

CREATE TABLE vehicle_replay_log (
    id              BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    account_id      VARCHAR(64)  NOT NULL,
    endpoint        VARCHAR(128) NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    replayed_at     TIMESTAMP    NOT NULL,
    PRIMARY KEY (id)
) ENGINE=Xpand;

CREATE UNIQUE INDEX uq_vehicle_replay ON vehicle_replay_log (idempotency_key, endpoint);

CREATE INDEX ix_vehicle_replay_acct ON vehicle_replay_log (account_id, idempotency_key);
