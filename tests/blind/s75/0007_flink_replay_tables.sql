-- Flink SQL (1.19) job catalog for the kiosk and box-office replay streams.
-- Tables are backed by upsert-kafka topics; keys are informational
-- (NOT ENFORCED) but decide the upsert key of the topic.

CREATE TABLE kiosk_replay (
    idem_key      STRING,
    kiosk_id      STRING,
    result        STRING,
    created_at    TIMESTAMP_LTZ(3),
    PRIMARY KEY (idem_key) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'kiosk.replay',
    'properties.bootstrap.servers' = '${KAFKA_BOOTSTRAP}',
    'key.format' = 'json',
    'value.format' = 'json'
);

CREATE TABLE box_office_idempotency (
    scope_version STRING,
    tenant_id     STRING,
    principal_id  STRING,
    route         STRING,
    ns            STRING,
    idem_key      STRING,
    status        STRING,
    response      BYTES,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'box-office.idempotency',
    'properties.bootstrap.servers' = '${KAFKA_BOOTSTRAP}',
    'key.format' = 'json',
    'value.format' = 'avro'
);

CREATE TABLE promoter_replay_by_account (
    account_id    STRING,
    idem_key      STRING,
    response      BYTES,
    PRIMARY KEY (account_id, idem_key) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'promoter.replay',
    'properties.bootstrap.servers' = '${KAFKA_BOOTSTRAP}',
    'key.format' = 'json',
    'value.format' = 'json'
);

CREATE TABLE seat_events (
    event_id       STRING,
    performance_id STRING,
    seat           STRING,
    state          STRING,
    PRIMARY KEY (event_id) NOT ENFORCED
) WITH (
    'connector' = 'upsert-kafka',
    'topic' = 'seating.events',
    'properties.bootstrap.servers' = '${KAFKA_BOOTSTRAP}',
    'key.format' = 'json',
    'value.format' = 'json'
);

CREATE TEMPORARY VIEW replay_hits AS
SELECT tenant_id, route, COUNT(*) AS hits
FROM box_office_idempotency
GROUP BY tenant_id, route;
