-- Teradata Vantage 17.20: idempotency storage for the settlement API.
-- MULTISET + explicit constraints; the primary index only drives AMP distribution.

DATABASE billing;

CREATE MULTISET TABLE billing.idempotency_records ,FALLBACK ,NO BEFORE JOURNAL ,NO AFTER JOURNAL
(
    scope_version VARCHAR(8) CHARACTER SET LATIN NOT NULL,
    tenant_id     VARCHAR(64) CHARACTER SET LATIN NOT NULL,
    principal_id  VARCHAR(128) CHARACTER SET LATIN NOT NULL,
    route         VARCHAR(128) CHARACTER SET LATIN NOT NULL,
    ns            CHAR(2) CHARACTER SET LATIN NOT NULL,
    idem_key      VARCHAR(255) CHARACTER SET UNICODE NOT NULL,
    fingerprint   BYTE(32) NOT NULL,
    status        VARCHAR(16) CHARACTER SET LATIN NOT NULL DEFAULT 'in_progress',
    response      BLOB(1048576),
    created_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    expires_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT idempotency_records_pk PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)
PRIMARY INDEX idempotency_records_pi (tenant_id);

CREATE MULTISET TABLE billing.dedup_tokens ,FALLBACK
(
    dedup_key     VARCHAR(255) CHARACTER SET UNICODE NOT NULL,
    tenant_id     VARCHAR(64) CHARACTER SET LATIN NOT NULL,
    settlement_id VARCHAR(64) CHARACTER SET LATIN,
    created_at    TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT dedup_tokens_uq UNIQUE (dedup_key)
)
PRIMARY INDEX (tenant_id);

-- Audit trail of replays served; append-only, no uniqueness wanted.
CREATE MULTISET TABLE billing.replay_audit ,NO FALLBACK
(
    tenant_id   VARCHAR(64) CHARACTER SET LATIN NOT NULL,
    idem_key    VARCHAR(255) CHARACTER SET UNICODE NOT NULL,
    served_at   TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
)
PRIMARY INDEX (tenant_id, idem_key);

COLLECT STATISTICS COLUMN (tenant_id) ON billing.idempotency_records;
