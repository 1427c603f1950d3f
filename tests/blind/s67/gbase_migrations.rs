//! Schema steps for the merchant gateway on GBase 8s, applied in order at start-up.

use dunlin::migrate::{Migrator, Step};

pub fn steps() -> Vec<Step> {
    vec![
        Step::new(
            17,
            "merchant dedupe keys",
            "CREATE TABLE merchant_dedupe_keys (
                merchant_id  VARCHAR(64)  NOT NULL,
                idem_key     VARCHAR(255) NOT NULL,
                status       VARCHAR(16)  DEFAULT 'in_progress' NOT NULL,
                response     BLOB,
                PRIMARY KEY (merchant_id, idem_key) CONSTRAINT pk_merchant_dedupe
            ) LOCK MODE ROW",
        ),
        Step::new(
            18,
            "request journal",
            "CREATE TABLE request_journal (
                request_id   VARCHAR(64)  NOT NULL,
                merchant_id  VARCHAR(64)  NOT NULL,
                path         VARCHAR(255) NOT NULL,
                PRIMARY KEY (request_id) CONSTRAINT pk_request_journal
            ) LOCK MODE ROW",
        ),
        Step::new(
            19,
            "replay guard",
            "CREATE TABLE replay_guard (
                guard_id     SERIAL8      NOT NULL,
                merchant_id  VARCHAR(64)  NOT NULL,
                principal_id VARCHAR(64)  NOT NULL,
                route        VARCHAR(128) NOT NULL,
                idem_key     VARCHAR(255) NOT NULL,
                PRIMARY KEY (guard_id) CONSTRAINT pk_replay_guard
            ) LOCK MODE ROW;
            CREATE UNIQUE INDEX ux_replay_guard_key ON replay_guard (idem_key)",
        ),
    ]
}

pub fn apply(m: &mut Migrator) -> Result<usize, dunlin::Error> {
    let mut applied = 0;
    for step in steps() {
        if m.apply(step)? {
            applied += 1;
        }
    }
    Ok(applied)
}
