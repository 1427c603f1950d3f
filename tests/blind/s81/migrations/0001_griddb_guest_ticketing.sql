-- Tidewater Zoo & Aquarium: guest ticketing cluster
-- GridDB 5.6 Enterprise Edition, NewSQL interface (run with gs_sh / JDBC).
-- Time-series containers expire by partition; collections are hash partitioned.

-- Gate scans are high-volume time series; only 90 days are kept online.
CREATE TABLE IF NOT EXISTS gate_scans (
    scan_ts   TIMESTAMP(3) PRIMARY KEY,
    wristband STRING NOT NULL,
    gate      STRING,
    reader    STRING
) USING TIMESERIES WITH (
    expiration_type = 'PARTITION',
    expiration_time = 90,
    expiration_time_unit = 'DAY'
) PARTITION BY RANGE (scan_ts) EVERY (1, DAY);

-- Replay store for the day-ticket purchase endpoint (first cut, 2023).
-- The v0 prototype kept a single "key STRING" row key; this is its successor.
CREATE TABLE IF NOT EXISTS ticket_replays (
    idem_key   STRING PRIMARY KEY,
    org_id     STRING NOT NULL,
    user_id    STRING NOT NULL,
    route      STRING NOT NULL,
    response   BLOB,
    created_at TIMESTAMP NOT NULL
) PARTITION BY HASH (idem_key) PARTITIONS 16;

-- Encounter bookings use a composite row key (GridDB 5.3+).
CREATE TABLE IF NOT EXISTS encounter_idempotency (
    org_id      STRING NOT NULL,
    user_id     STRING NOT NULL,
    route       STRING NOT NULL,
    idem_key    STRING NOT NULL,
    fingerprint BLOB,
    status      STRING,
    response    BLOB,
    created_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (org_id, user_id, route, idem_key)
) PARTITION BY HASH (org_id) PARTITIONS 16;

-- Offsets of the replay consumers (one row per consumer group).
CREATE TABLE IF NOT EXISTS replay_consumer_offsets (
    consumer_group STRING PRIMARY KEY,
    last_offset    LONG NOT NULL,
    updated_at     TIMESTAMP NOT NULL
);

CREATE INDEX ticket_replays_created ON ticket_replays (created_at);
