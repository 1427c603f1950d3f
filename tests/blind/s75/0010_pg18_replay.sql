-- PostgreSQL 18: replay store for the patron app, with uuidv7() surrogate
-- ids and a virtual generated column for the expiry day.

CREATE TABLE app_replay_records (
    id            uuid        NOT NULL DEFAULT uuidv7(),
    org_id        text        NOT NULL,
    user_id       text        NOT NULL,
    route         text        NOT NULL,
    idem_key      text        NOT NULL,
    fingerprint   bytea       NOT NULL,
    status        text        NOT NULL,
    response      bytea,
    expires_at    timestamptz NOT NULL,
    expires_day   date GENERATED ALWAYS AS ((expires_at AT TIME ZONE 'UTC')::date) VIRTUAL,
    CONSTRAINT app_replay_records_pkey PRIMARY KEY (id),
    CONSTRAINT app_replay_status_ck CHECK (status IN ('in_progress', 'completed')) NOT ENFORCED
);

CREATE UNIQUE INDEX app_replay_records_key ON app_replay_records (route, idem_key);

CREATE INDEX app_replay_records_expiry ON app_replay_records (expires_day);

CREATE TABLE app_idempotency_v2 (
    scope_version text NOT NULL DEFAULT 'v1',
    org_id        text NOT NULL,
    user_id       text NOT NULL,
    route         text NOT NULL,
    ns            text NOT NULL,
    idem_key      text NOT NULL,
    fingerprint   bytea NOT NULL,
    response      bytea,
    PRIMARY KEY (scope_version, org_id, user_id, route, ns, idem_key)
);

CREATE TABLE seat_price_bands (
    band_key      text PRIMARY KEY,
    label         text NOT NULL,
    price_minor   bigint NOT NULL
);
