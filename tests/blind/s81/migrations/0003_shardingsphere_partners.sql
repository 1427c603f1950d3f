-- Tidewater Zoo & Aquarium: partner API (studbook transfers, group sales)
-- Apache ShardingSphere-Proxy 5.4.1, MySQL protocol, logical database partner_api.
-- DistSQL registers the storage units and sharding rules; the CREATE TABLE
-- statements are routed to every shard by the proxy.

REGISTER STORAGE UNIT IF NOT EXISTS
    ds_0 (URL="jdbc:mysql://db0.partners.internal:3306/partners?serverTimezone=UTC", USER="svc_partner", PASSWORD="${DS0_PASSWORD}"),
    ds_1 (URL="jdbc:mysql://db1.partners.internal:3306/partners?serverTimezone=UTC", USER="svc_partner", PASSWORD="${DS1_PASSWORD}");

CREATE SHARDING TABLE RULE studbook_transfer_replays (
    STORAGE_UNITS(ds_0, ds_1),
    SHARDING_COLUMN=org_id,
    TYPE(NAME="hash_mod", PROPERTIES("sharding-count"="4"))
);

CREATE TABLE studbook_transfer_replays (
    org_id     VARCHAR(64)  NOT NULL,
    client_id  VARCHAR(64)  NOT NULL,
    route      VARCHAR(96)  NOT NULL,
    idem_key   VARCHAR(255) NOT NULL,
    response   MEDIUMBLOB,
    created_at DATETIME(3)  NOT NULL,
    PRIMARY KEY (org_id, client_id, route, idem_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE SHARDING TABLE RULE group_block_dedup (
    STORAGE_UNITS(ds_0, ds_1),
    SHARDING_COLUMN=org_id,
    TYPE(NAME="hash_mod", PROPERTIES("sharding-count"="4")),
    KEY_GENERATE_STRATEGY(COLUMN=id, TYPE(NAME="snowflake"))
);

CREATE TABLE group_block_dedup (
    id         BIGINT       NOT NULL,
    org_id     VARCHAR(64)  NOT NULL,
    client_id  VARCHAR(64)  NOT NULL,
    idem_key   VARCHAR(255) NOT NULL,
    response   MEDIUMBLOB,
    created_at DATETIME(3)  NOT NULL,
    PRIMARY KEY (id, org_id),
    UNIQUE KEY uk_group_block_dedup (client_id, idem_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE BROADCAST TABLE RULE partner_tiers;

CREATE TABLE partner_tiers (
    tier_code    VARCHAR(16) PRIMARY KEY,
    discount_bps INT NOT NULL,
    max_block    INT NOT NULL
) ENGINE=InnoDB;
