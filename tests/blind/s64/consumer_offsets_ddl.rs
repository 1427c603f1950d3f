use sextant::migrate::Migrator;

pub const REPLAY_CURSOR_MYSQL: &str = "
CREATE TABLE IF NOT EXISTS replay_cursor (
    consumer_group  VARCHAR(64)  NOT NULL,
    partition_no    INT          NOT NULL,
    last_offset     BIGINT       NOT NULL,
    updated_at      DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    PRIMARY KEY (consumer_group, partition_no)
) ENGINE=InnoDB;
";

pub const IDEMPOTENT_WRITES_MYSQL: &str = "
CREATE TABLE IF NOT EXISTS idempotent_writes (
    id            BIGINT       NOT NULL AUTO_INCREMENT,
    tenant_id     VARCHAR(64)  NOT NULL,
    principal_id  VARCHAR(64)  NOT NULL,
    route         VARCHAR(96)  NOT NULL,
    idem_key      VARCHAR(255) NOT NULL,
    response      MEDIUMBLOB   NULL,
    PRIMARY KEY (id)
) ENGINE=InnoDB;
CREATE UNIQUE INDEX ux_idempotent_writes_scope ON idempotent_writes (tenant_id, principal_id, route, idem_key);
";

pub fn register(m: &mut Migrator) {
    m.add("0020_replay_cursor", REPLAY_CURSOR_MYSQL);
    m.add("0021_idempotent_writes", IDEMPOTENT_WRITES_MYSQL);
}

pub fn describe() -> Vec<(&'static str, &'static str)> {
    vec![
        ("replay_cursor", "consumer offsets for the replay pipeline"),
        ("idempotent_writes", "scoped request keys for write endpoints"),
    ]
}

pub fn statements() -> usize {
    [REPLAY_CURSOR_MYSQL, IDEMPOTENT_WRITES_MYSQL]
        .iter()
        .map(|s| s.matches(';').count())
        .sum()
}

pub fn is_registered(m: &Migrator, name: &str) -> bool {
    m.names().iter().any(|n| n.ends_with(name))
}
