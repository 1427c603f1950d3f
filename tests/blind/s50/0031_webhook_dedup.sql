-- Inbound webhook deduplication and the transactional inbox.
CREATE TABLE inbox_messages (
    message_id  TEXT PRIMARY KEY,
    payload     JSONB NOT NULL,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE webhook_dedup (
    account_id   TEXT NOT NULL,
    event_id     TEXT NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (account_id, event_id)
);

CREATE INDEX webhook_dedup_processed_idx ON webhook_dedup (processed_at);
