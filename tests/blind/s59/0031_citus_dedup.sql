-- Citus 12: distributed dedup tables for the notifications service.

CREATE TABLE dedup_events (
    tenant_id     text        NOT NULL,
    user_id       text        NOT NULL,
    route         text        NOT NULL,
    dedup_key     text        NOT NULL,
    first_seen    timestamptz NOT NULL DEFAULT now(),
    result        jsonb,
    CONSTRAINT dedup_events_pk PRIMARY KEY (tenant_id, user_id, route, dedup_key)
);

SELECT create_distributed_table('dedup_events', 'tenant_id');

CREATE TABLE notification_dedup (
    id            bigserial   PRIMARY KEY,
    tenant_id     text        NOT NULL,
    user_id       text        NOT NULL,
    channel       text        NOT NULL,
    dedup_key     text        NOT NULL,
    sent_at       timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX notification_dedup_key_uq ON notification_dedup (dedup_key);

CREATE TABLE notification_templates (
    tenant_id     text        NOT NULL,
    template_code text        NOT NULL,
    body          text        NOT NULL,
    UNIQUE (tenant_id, template_code)
);

SELECT create_reference_table('notification_templates');

CREATE INDEX dedup_events_first_seen_idx ON dedup_events (first_seen);
CREATE INDEX notification_dedup_sent_idx ON notification_dedup (tenant_id, sent_at);

ALTER TABLE dedup_events SET (autovacuum_vacuum_scale_factor = 0.02);

COMMENT ON TABLE dedup_events IS 'first result per (tenant, user, route, key); rows older than 48h are purged nightly';
COMMENT ON TABLE notification_dedup IS 'one row per notification actually sent';

GRANT SELECT, INSERT, DELETE ON dedup_events TO notifications_app;
GRANT SELECT, INSERT ON notification_dedup TO notifications_app;
GRANT SELECT ON notification_templates TO notifications_app;
