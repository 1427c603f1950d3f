-- ksqlDB 0.29 statements for the webhook intake pipeline.
-- Run with: ksql --file 0008_ksqldb_dedup.sql

CREATE STREAM webhook_deliveries (
    dedup_key     VARCHAR KEY,
    provider      VARCHAR,
    org_id        VARCHAR,
    payload       VARCHAR
) WITH (KAFKA_TOPIC = 'webhooks.raw', KEY_FORMAT = 'KAFKA', VALUE_FORMAT = 'JSON');

CREATE TABLE webhook_dedup (
    dedup_key     VARCHAR PRIMARY KEY,
    provider      VARCHAR,
    first_seen    BIGINT
) WITH (KAFKA_TOPIC = 'webhooks.dedup', KEY_FORMAT = 'KAFKA', VALUE_FORMAT = 'JSON', PARTITIONS = 6);

CREATE TABLE patron_idempotency_replies (
    idempotency_key VARCHAR PRIMARY KEY,
    org_id          VARCHAR,
    user_id         VARCHAR,
    route           VARCHAR,
    reply           VARCHAR
) WITH (KAFKA_TOPIC = 'patron.idempotency.replies', KEY_FORMAT = 'JSON', VALUE_FORMAT = 'JSON', PARTITIONS = 6);

CREATE TABLE performance_capacity (
    performance_id VARCHAR PRIMARY KEY,
    seats_left     INT
) WITH (KAFKA_TOPIC = 'seating.capacity', VALUE_FORMAT = 'JSON', PARTITIONS = 6);

CREATE TABLE replies_by_scope WITH (KAFKA_TOPIC = 'patron.idempotency.by_scope', KEY_FORMAT = 'JSON') AS
    SELECT org_id, user_id, route, idempotency_key, LATEST_BY_OFFSET(reply) AS reply
    FROM patron_reply_stream
    GROUP BY org_id, user_id, route, idempotency_key
    EMIT CHANGES;
