-- Tidewater Zoo & Aquarium: donations, adoptions and pledges
-- Postgres-XL 10R1.1, run on the coordinator. Unique constraints on hash
-- distributed tables must include the distribution column.

CREATE TABLE animal_adoptions (
    adoption_id  uuid PRIMARY KEY,
    org_id       text NOT NULL,
    user_id      text NOT NULL,
    animal_id    text NOT NULL,
    package      text NOT NULL,
    amount_cents bigint NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
) DISTRIBUTE BY HASH (adoption_id);

CREATE TABLE donation_dedup (
    org_id     text NOT NULL,
    user_id    text NOT NULL,
    route      text NOT NULL,
    idem_key   text NOT NULL,
    response   bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (org_id, idem_key)
) DISTRIBUTE BY HASH (org_id);

-- Adoption replays are small and read on every retry: replicate them.
CREATE TABLE adoption_replays (
    id         bigserial,
    org_id     text NOT NULL,
    user_id    text NOT NULL,
    route      text NOT NULL,
    idem_key   text NOT NULL,
    response   bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (id)
) DISTRIBUTE BY REPLICATION;
CREATE UNIQUE INDEX adoption_replays_key ON adoption_replays (idem_key);

CREATE TABLE pledge_idempotency (
    org_id      text NOT NULL,
    user_id     text NOT NULL,
    route       text NOT NULL,
    idem_key    text NOT NULL,
    fingerprint bytea NOT NULL,
    status      text NOT NULL DEFAULT 'in_progress',
    response    bytea,
    expires_at  timestamptz NOT NULL,
    PRIMARY KEY (org_id, user_id, route, idem_key)
) DISTRIBUTE BY HASH (org_id) TO NODE (dn1, dn2, dn3);

CREATE INDEX pledge_idempotency_expiry ON pledge_idempotency (expires_at);
