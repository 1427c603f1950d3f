-- InterSystems IRIS 2024.1 data platform, namespace BILLING.
-- Applied by the platform team's migration runner ($SYSTEM.SQL.Schema.ImportDDL).

CREATE TABLE Billing.IdempotencyRecord (
    tenant_id      VARCHAR(64)    NOT NULL,
    idem_key       VARCHAR(255)   NOT NULL,
    status         VARCHAR(16)    NOT NULL DEFAULT 'in_progress',
    fingerprint    VARBINARY(32),
    response_code  SMALLINT,
    response_body  LONGVARBINARY,
    created_at     TIMESTAMP      NOT NULL DEFAULT CURRENT_TIMESTAMP,
    expires_at     TIMESTAMP,
    CONSTRAINT IdemRecordPK PRIMARY KEY (tenant_id, idem_key)
)
WITH %CLASSPARAMETER DEFAULTGLOBAL = '^Billing.IdemRecord';

CREATE INDEX IdemRecordExpiry ON Billing.IdempotencyRecord (expires_at, idem_key);

CREATE TABLE Billing.ReplayResponse (
    scope_version  VARCHAR(8)     NOT NULL DEFAULT 'v1',
    tenant_id      VARCHAR(64)    NOT NULL,
    principal_id   VARCHAR(64)    NOT NULL,
    route          VARCHAR(128)   NOT NULL,
    ns             CHAR(2)        NOT NULL,
    idem_key       VARCHAR(255)   NOT NULL,
    fingerprint    VARBINARY(32)  NOT NULL,
    status         VARCHAR(16)    NOT NULL,
    response_body  LONGVARBINARY,
    created_at     TIMESTAMP      NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT ReplayResponsePK PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)
WITH %CLASSPARAMETER DEFAULTGLOBAL = '^Billing.Replay';

CREATE BITMAP INDEX ReplayResponseStatus ON Billing.ReplayResponse (status);
