-- MySQL HeatWave 8.4 (OCI). InnoDB stays the primary engine; the revenue
-- copies are loaded into the RAPID secondary engine for the dashboards.

CREATE TABLE topup_dedup (
  id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  tenant_id     VARCHAR(64)  NOT NULL,
  user_id       VARCHAR(64)  NOT NULL,
  route         VARCHAR(96)  NOT NULL,
  dedup_key     VARCHAR(255) NOT NULL,
  fingerprint   BINARY(32)   NOT NULL,
  status        ENUM('in_progress', 'completed') NOT NULL DEFAULT 'in_progress',
  response      JSON NULL,
  created_at    DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (id),
  UNIQUE KEY uq_topup_dedup_key (dedup_key),
  KEY ix_topup_dedup_tenant (tenant_id, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE UNIQUE INDEX ux_topup_dedup_scope ON topup_dedup (tenant_id, user_id, route, dedup_key);

CREATE TABLE wallet_idempotency (
  tenant_id     VARCHAR(64)  NOT NULL,
  user_id       VARCHAR(64)  NOT NULL,
  route         VARCHAR(96)  NOT NULL,
  idem_key      VARCHAR(255) NOT NULL,
  fingerprint   BINARY(32)   NOT NULL,
  status        ENUM('in_progress', 'completed') NOT NULL,
  response      JSON NULL,
  expires_at    DATETIME     NOT NULL,
  PRIMARY KEY (tenant_id, user_id, route, idem_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE TABLE topup_revenue_daily (
  tenant_id     VARCHAR(64)   NOT NULL,
  service_day   DATE          NOT NULL,
  topups        INT UNSIGNED  NOT NULL,
  gross_minor   BIGINT        NOT NULL,
  PRIMARY KEY (tenant_id, service_day)
) ENGINE=InnoDB SECONDARY_ENGINE=RAPID;

ALTER TABLE topup_revenue_daily SECONDARY_LOAD;
