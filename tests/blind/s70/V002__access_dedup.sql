-- Microsoft Access (ACE/Jet SQL) back office used by the small-property edition.
-- Run each statement separately in the Access query designer.

CREATE TABLE deposit_dedup (
    request_key   TEXT(255) NOT NULL,
    tenant_id     TEXT(64) NOT NULL,
    amount        CURRENCY,
    answered_at   DATETIME,
    CONSTRAINT pk_deposit_dedup PRIMARY KEY (request_key)
);

CREATE TABLE idempotency_entries (
    entry_id      COUNTER NOT NULL,
    tenant_id     TEXT(64) NOT NULL,
    user_id       TEXT(64) NOT NULL,
    route         TEXT(64) NOT NULL,
    idem_key      TEXT(255) NOT NULL,
    response      MEMO,
    CONSTRAINT pk_idempotency_entries PRIMARY KEY (entry_id),
    CONSTRAINT uq_idempotency_entries UNIQUE (tenant_id, user_id, route, idem_key)
);

CREATE TABLE replay_notes (
    note_id       COUNTER NOT NULL,
    tenant_id     TEXT(64) NOT NULL,
    idem_key      TEXT(255) NOT NULL,
    note          MEMO,
    CONSTRAINT pk_replay_notes PRIMARY KEY (note_id)
);

CREATE INDEX ix_replay_notes_key ON replay_notes (idem_key);
