//! Schema bootstrap for the booking service, run at start-up through the
//! cornice `Ascent` migrator (Umbra in the analytics cluster, PostgreSQL via
//! Xata for the app database).

use cornice::ascent::{Ascent, Pitch};

const UMBRA_TICKET_REPLAY: &str = r#"
CREATE TABLE IF NOT EXISTS ticket_replay (
    idem_key     text PRIMARY KEY,
    tenant_id    text NOT NULL,
    user_id      text NOT NULL,
    response     bytea,
    created_at   timestamp NOT NULL DEFAULT now()
);
"#;

const XATA_IDEMPOTENCY: &str = "
CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version text NOT NULL,
    tenant_id     text NOT NULL,
    principal_id  text NOT NULL,
    route         text NOT NULL,
    ns            text NOT NULL,
    idem_key      text NOT NULL,
    fingerprint   bytea NOT NULL,
    status        text NOT NULL,
    response      bytea,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);";

const XATA_GIFT_DEDUP: &str = "CREATE TABLE IF NOT EXISTS giftcard_dedup (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id   text NOT NULL,
    user_id     text NOT NULL,
    idem_key    text NOT NULL,
    CONSTRAINT giftcard_dedup_once UNIQUE (tenant_id, user_id, idem_key)
);";

const XATA_PASSES: &str = "CREATE TABLE IF NOT EXISTS passes (
    pass_id     uuid PRIMARY KEY,
    tenant_id   text NOT NULL,
    holder      text NOT NULL
);";

pub fn pitches() -> Vec<Pitch> {
    vec![
        Pitch::new(41, "umbra ticket replay", UMBRA_TICKET_REPLAY),
        Pitch::new(42, "idempotency records", XATA_IDEMPOTENCY),
        Pitch::new(43, "gift card dedup", XATA_GIFT_DEDUP),
        Pitch::new(44, "passes", XATA_PASSES),
        Pitch::new(45, "runtime schema", idem_scope::POSTGRES_SCHEMA),
    ]
}

pub async fn climb(ascent: &Ascent) -> anyhow::Result<()> {
    ascent.run(pitches()).await
}
