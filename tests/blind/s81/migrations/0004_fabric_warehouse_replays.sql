-- Tidewater Zoo & Aquarium: replay history for finance reconciliation
-- Microsoft Fabric Warehouse (T-SQL surface area). Constraints in a Fabric
-- warehouse must be NONCLUSTERED and NOT ENFORCED; they still document the
-- key the loader deduplicates on.

CREATE TABLE dbo.wallet_pass_idempotency
(
    idem_key    VARCHAR(255)    NOT NULL,
    org_id      VARCHAR(64)     NOT NULL,
    user_id     VARCHAR(64)     NOT NULL,
    route       VARCHAR(96)     NOT NULL,
    response    VARBINARY(8000) NULL,
    created_at  DATETIME2(6)    NOT NULL,
    CONSTRAINT pk_wallet_pass_idempotency PRIMARY KEY NONCLUSTERED (idem_key) NOT ENFORCED
);

CREATE TABLE dbo.cafe_dedup_keys
(
    org_id      VARCHAR(64)     NOT NULL,
    route       VARCHAR(96)     NOT NULL,
    idem_key    VARCHAR(255)    NOT NULL,
    status_code SMALLINT        NOT NULL,
    recorded_at DATETIME2(6)    NOT NULL,
    CONSTRAINT uq_cafe_dedup_keys UNIQUE NONCLUSTERED (org_id, route, idem_key) NOT ENFORCED
);

CREATE TABLE dbo.membership_replays
(
    org_id      VARCHAR(64)     NOT NULL,
    user_id     VARCHAR(64)     NOT NULL,
    route       VARCHAR(96)     NOT NULL,
    idem_key    VARCHAR(255)    NOT NULL,
    status_code SMALLINT        NOT NULL,
    recorded_at DATETIME2(6)    NOT NULL,
    CONSTRAINT pk_membership_replays PRIMARY KEY NONCLUSTERED (org_id, user_id, route, idem_key) NOT ENFORCED
);

CREATE TABLE dbo.gift_card_ledger
(
    ledger_id    BIGINT IDENTITY,
    org_id       VARCHAR(64)  NOT NULL,
    card_ref     VARCHAR(128) NOT NULL,
    delta_cents  BIGINT       NOT NULL,
    posted_at    DATETIME2(6) NOT NULL
);

ALTER TABLE dbo.gift_card_ledger ADD CONSTRAINT pk_gift_card_ledger PRIMARY KEY NONCLUSTERED (ledger_id) NOT ENFORCED;
