//! Migration ladder of the box-office database (PostgreSQL 16).
use idem_scope::POSTGRES_SCHEMA;
use loft::ladder::{Ladder, Rung};

const ORDERS: &str = "
CREATE TABLE ticket_orders (
    order_key     TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    total_minor   BIGINT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);";

const REPLAY_RESPONSES: &str = "
CREATE TABLE replay_responses (
    scope_version TEXT NOT NULL DEFAULT 'v1',
    org_id        TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    endpoint      TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response      BYTEA,
    expires_at    TIMESTAMPTZ NOT NULL,
    CONSTRAINT replay_responses_pk PRIMARY KEY (scope_version, org_id, user_id, endpoint, ns, idem_key)
);";

const REPLAY_INDEXES: &str = "
CREATE INDEX replay_responses_expiry ON replay_responses (expires_at);
CREATE INDEX replay_responses_key_lookup ON replay_responses (idem_key);";

const DEDUP_AUDIT: &str = "
CREATE TABLE dedup_audit (
    id          BIGSERIAL PRIMARY KEY,
    org_id      TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    route       TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (org_id, user_id, route, idem_key, at)
);";

pub fn ladder() -> Ladder {
    Ladder::new("box-office")
        .rung(Rung::sql(POSTGRES_SCHEMA))
        .rung(Rung::sql(ORDERS))
        .rung(Rung::sql(REPLAY_RESPONSES))
        .rung(Rung::sql(REPLAY_INDEXES))
        .rung(Rung::sql(DEDUP_AUDIT))
}
