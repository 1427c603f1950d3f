-- SAP MaxDB 7.9: dedup tables for the invoicing module (statements separated by // for the loader)
CREATE TABLE dedup_events (
    tenant_id     VARCHAR(64)  ASCII NOT NULL,
    idem_key      VARCHAR(255) ASCII NOT NULL,
    event_type    VARCHAR(64)  ASCII,
    received_at   TIMESTAMP    DEFAULT TIMESTAMP,
    PRIMARY KEY (tenant_id, idem_key)
)
//
CREATE TABLE dedup_requests (
    scope_version VARCHAR(8)   ASCII NOT NULL DEFAULT 'v1',
    tenant_id     VARCHAR(64)  ASCII NOT NULL,
    principal_id  VARCHAR(64)  ASCII NOT NULL,
    route         VARCHAR(128) ASCII NOT NULL,
    ns            CHAR(2)      ASCII NOT NULL,
    idem_key      VARCHAR(255) ASCII NOT NULL,
    fingerprint   CHAR(64)     BYTE,
    response      LONG BYTE,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)
//
CREATE TABLE dedup_legacy (
    id            FIXED(18)    NOT NULL DEFAULT SERIAL,
    idem_key      VARCHAR(255) ASCII NOT NULL,
    tenant_id     VARCHAR(64)  ASCII,
    payload       LONG BYTE,
    PRIMARY KEY (id)
)
//
CREATE UNIQUE INDEX dedup_legacy_key ON dedup_legacy (idem_key)
//
CREATE VIEW dedup_recent AS
    SELECT tenant_id, idem_key, event_type, received_at
      FROM dedup_events
     WHERE received_at > ADDDATE(TIMESTAMP, -7)
//
GRANT SELECT, INSERT, DELETE ON dedup_events TO invoicing
//
GRANT SELECT, INSERT, UPDATE ON dedup_requests TO invoicing
//
COMMIT WORK
