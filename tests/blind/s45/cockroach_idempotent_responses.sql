-- CockroachDB: cached responses for the public API.
CREATE TABLE idempotent_responses (
    id UUID NOT NULL DEFAULT gen_random_uuid(),
    idempotency_key STRING NOT NULL,
    method STRING NOT NULL,
    status_code INT8 NOT NULL,
    body BYTES,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT idempotent_responses_pk PRIMARY KEY (id)
);

CREATE UNIQUE INDEX idempotent_responses_key_uq ON idempotent_responses (idempotency_key);

CREATE TABLE api_sessions (
    session_key STRING PRIMARY KEY,
    user_id STRING NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
