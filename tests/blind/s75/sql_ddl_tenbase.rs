//! Schema bootstrap for the OpenTenBase cluster behind the partner API.
//! Statements run in order through `loft::ladder` on first start.

pub const PARTNER_REPLAY_V1: &str = r#"
CREATE TABLE partner_replay_log (
    row_key     BYTEA        NOT NULL,
    response    BYTEA,
    created_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (row_key)
) DISTRIBUTE BY SHARD (row_key) TO GROUP default_group;
"#;

pub const PARTNER_REPLAY_V2: &str = r#"
CREATE TABLE partner_replay_log_v2 (
    scope_version TEXT        NOT NULL,
    tenant_id     TEXT        NOT NULL,
    principal_id  TEXT        NOT NULL,
    route         TEXT        NOT NULL,
    ns            TEXT        NOT NULL,
    idem_key      TEXT        NOT NULL,
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) DISTRIBUTE BY SHARD (tenant_id) TO GROUP default_group;
"#;

pub const SEAT_MAP_CACHE: &str = "CREATE TABLE seat_map_cache (cache_key TEXT PRIMARY KEY, body BYTEA, refreshed_at TIMESTAMPTZ) DISTRIBUTE BY REPLICATION;";

pub const PARTNER_REPLAY_INDEXES: &str = "CREATE INDEX partner_replay_log_v2_created ON partner_replay_log_v2 (created_at);";

pub fn bootstrap() -> Vec<&'static str> {
    vec![PARTNER_REPLAY_V1, PARTNER_REPLAY_V2, SEAT_MAP_CACHE, PARTNER_REPLAY_INDEXES]
}
