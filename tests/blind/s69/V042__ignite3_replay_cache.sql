-- Apache Ignite 3.0 SQL: replay cache for the roaming hub (colocated by
-- tenant, in a dedicated distribution zone).

CREATE ZONE IF NOT EXISTS roaming_zone WITH STORAGE_PROFILES='default', REPLICAS=3, PARTITIONS=64;

CREATE TABLE IF NOT EXISTS ocpi_replay_cache (
    tenant_id    VARCHAR(64)  NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    response     VARBINARY(65536),
    stored_at    TIMESTAMP    NOT NULL,
    PRIMARY KEY (tenant_id, idem_key)
) COLOCATE BY (tenant_id) ZONE roaming_zone;

CREATE TABLE IF NOT EXISTS ocpi_replay_cache_v2 (
    scope_version VARCHAR(8)   NOT NULL,
    tenant_id     VARCHAR(64)  NOT NULL,
    principal_id  VARCHAR(64)  NOT NULL,
    route         VARCHAR(128) NOT NULL,
    ns            VARCHAR(2)   NOT NULL,
    idem_key      VARCHAR(255) NOT NULL,
    fingerprint   VARBINARY(32) NOT NULL,
    response      VARBINARY(65536),
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) COLOCATE BY (tenant_id) ZONE roaming_zone;

CREATE INDEX IF NOT EXISTS ocpi_replay_v2_route ON ocpi_replay_cache_v2 (route, tenant_id);

CREATE TABLE IF NOT EXISTS ocpi_partners (
    party_id     VARCHAR(3)   NOT NULL,
    country_code VARCHAR(2)   NOT NULL,
    api_key      VARCHAR(255) NOT NULL,
    PRIMARY KEY (country_code, party_id)
) ZONE roaming_zone;
