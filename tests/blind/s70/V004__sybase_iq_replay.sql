-- SAP IQ 16.1 (Sybase IQ) reporting replica for the loyalty programme.

CREATE TABLE loyalty_replay_cache (
    idem_key      VARCHAR(255) NOT NULL PRIMARY KEY,
    response      LONG VARCHAR,
    stored_at     DATETIME DEFAULT CURRENT TIMESTAMP
) IN iq_main;

CREATE HG INDEX loyalty_replay_cache_stored_hg ON loyalty_replay_cache (stored_at);

CREATE TABLE loyalty_idempotency (
    tenant_id     VARCHAR(64) NOT NULL,
    user_id       VARCHAR(64) NOT NULL,
    route         VARCHAR(64) NOT NULL,
    idem_key      VARCHAR(255) NOT NULL IQ UNIQUE (5000000),
    response      LONG VARCHAR,
    UNIQUE (tenant_id, user_id, route, idem_key)
) IN iq_main;

CREATE TABLE points_replay_marks (
    tenant_id     VARCHAR(64) NOT NULL,
    user_id       VARCHAR(64) NOT NULL,
    replay_key    VARCHAR(255) NOT NULL,
    marked_at     DATETIME DEFAULT CURRENT TIMESTAMP,
    UNIQUE (tenant_id, user_id, replay_key)
) IN iq_main;
