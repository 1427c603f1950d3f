-- GBase 8a MPP Cluster 9.5: billing-side dedup tables for partner feeds.
-- Hash distribution is declared with DISTRIBUTED BY('column').

CREATE TABLE lockbox_dedup (
    org_id        varchar(64)  NOT NULL,
    api_key_id    varchar(64)  NOT NULL,
    route         varchar(64)  NOT NULL,
    idem_key      varchar(255) NOT NULL,
    response      text,
    created_at    datetime     NOT NULL,
    PRIMARY KEY (org_id, api_key_id, route, idem_key)
) DISTRIBUTED BY('org_id') COMPRESS(5, 5);

CREATE TABLE ivr_payment_replays (
    idem_key      varchar(255) NOT NULL PRIMARY KEY,
    org_id        varchar(64)  NOT NULL,
    response      text,
    created_at    datetime     NOT NULL
) DISTRIBUTED BY('idem_key');

CREATE TABLE partner_charge_idempotency (
    charge_id     bigint       NOT NULL AUTO_INCREMENT,
    org_id        varchar(64)  NOT NULL,
    user_id       varchar(64)  NOT NULL,
    idem_key      varchar(255) NOT NULL,
    status        varchar(16)  NOT NULL,
    response      text,
    PRIMARY KEY (charge_id),
    UNIQUE KEY uk_partner_charge (org_id, idem_key)
) DISTRIBUTED BY('org_id');

CREATE TABLE plan_review_idempotency (
    tenant_id     varchar(64)  NOT NULL,
    user_id       varchar(64)  NOT NULL,
    route         varchar(64)  NOT NULL,
    idem_key      varchar(255) NOT NULL,
    response      text,
    PRIMARY KEY (tenant_id, user_id, route, idem_key)
) DISTRIBUTED BY('tenant_id');
