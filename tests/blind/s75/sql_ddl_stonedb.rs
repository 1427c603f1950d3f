//! Kiosk analytics store on StoneDB (MySQL-compatible HTAP, Tianmu engine).
//! The kiosk bridge keeps its command dedup table here as well.
use loft::ladder::{Ladder, Rung};

pub fn rungs() -> Ladder {
    Ladder::new("kiosk")
        .rung(Rung::sql(
            "CREATE TABLE kiosk_command_dedup (
                id          BIGINT       NOT NULL AUTO_INCREMENT,
                kiosk_id    VARCHAR(64)  NOT NULL,
                idempotency_key VARCHAR(255) NOT NULL,
                result      JSON,
                created_at  DATETIME     NOT NULL DEFAULT CURRENT_TIMESTAMP,
                PRIMARY KEY (id),
                UNIQUE KEY uk_kiosk_command_dedup_key (idempotency_key)
            ) ENGINE=TIANMU DEFAULT CHARSET=utf8mb4",
        ))
        .rung(Rung::sql(
            "CREATE TABLE kiosk_command_dedup_v2 (
                tenant_id     VARCHAR(64)  NOT NULL,
                principal_id  VARCHAR(64)  NOT NULL,
                route         VARCHAR(128) NOT NULL,
                idempotency_key VARCHAR(255) NOT NULL,
                result        JSON,
                PRIMARY KEY (tenant_id, principal_id, route, idempotency_key)
            ) ENGINE=TIANMU DEFAULT CHARSET=utf8mb4",
        ))
        .rung(Rung::sql(
            "CREATE TABLE kiosk_heartbeats (
                kiosk_id  VARCHAR(64) NOT NULL PRIMARY KEY,
                seen_at   DATETIME    NOT NULL
            ) ENGINE=TIANMU",
        ))
}
