-- SnappyData 1.3 (TIBCO ComputeDB) row tables for the gate-in and
-- customs bridges, colocated with the visit tables.

CREATE TABLE app.truck_visits (
    visit_no VARCHAR(20) NOT NULL PRIMARY KEY,
    account_id VARCHAR(64) NOT NULL,
    plate VARCHAR(16) NOT NULL,
    arrived_at TIMESTAMP
) USING ROW OPTIONS (PARTITION_BY 'visit_no', BUCKETS '32', REDUNDANCY '1', PERSISTENCE 'SYNC');

CREATE TABLE app.dedup_requests (
    request_key VARCHAR(255) NOT NULL PRIMARY KEY,
    account_id VARCHAR(64) NOT NULL,
    user_id VARCHAR(64) NOT NULL,
    route VARCHAR(128) NOT NULL,
    response BLOB,
    created_at TIMESTAMP
) USING ROW OPTIONS (PARTITION_BY 'request_key', BUCKETS '32', REDUNDANCY '1', PERSISTENCE 'ASYNC', EXPIRE '86400');

CREATE TABLE app.idempotency_keys (
    account_id VARCHAR(64) NOT NULL,
    user_id VARCHAR(64) NOT NULL,
    route VARCHAR(128) NOT NULL,
    idem_key VARCHAR(255) NOT NULL,
    status VARCHAR(16) NOT NULL,
    fingerprint CHAR(64) NOT NULL,
    response BLOB,
    PRIMARY KEY (account_id, user_id, route, idem_key)
) USING ROW OPTIONS (PARTITION_BY 'account_id', BUCKETS '32', REDUNDANCY '1', PERSISTENCE 'SYNC', EXPIRE '172800');

CREATE TABLE app.replay_cache (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id VARCHAR(64) NOT NULL,
    user_id VARCHAR(64) NOT NULL,
    route VARCHAR(128) NOT NULL,
    idem_key VARCHAR(255) NOT NULL,
    response BLOB,
    CONSTRAINT replay_cache_scope UNIQUE (account_id, idem_key)
) USING ROW OPTIONS (PARTITION_BY 'account_id', COLOCATE_WITH 'app.idempotency_keys', BUCKETS '32', REDUNDANCY '1');

CREATE TABLE app.yard_move_facts (
    move_id BIGINT NOT NULL,
    block VARCHAR(8),
    moved_at TIMESTAMP
) USING COLUMN OPTIONS (BUCKETS '16', KEY_COLUMNS 'move_id');
