//! Schemas for the edge boxes in mobile clinics (vans) and the kennel gateway.
//!
//! Vans run solidDB in-memory tables that sync back at night; the kennel
//! gateway runs Raima RDM.

use silage::evolve::{Runner, Step};

/// solidDB 7 (van edge box).
pub const SOLID_IDEMPOTENCY: &str = "\
CREATE TABLE idempotency_keys (
    idem_key    VARCHAR(128) NOT NULL PRIMARY KEY,
    tenant_id   VARCHAR(64)  NOT NULL,
    user_id     VARCHAR(64)  NOT NULL,
    route       VARCHAR(128) NOT NULL,
    status      VARCHAR(16)  NOT NULL,
    response    LONG VARBINARY
) STORE MEMORY;
";

/// solidDB 7: response cache keyed by the full scope.
pub const SOLID_REPLAY: &str = "\
CREATE TABLE replay_responses (
    scope_version VARCHAR(8)   NOT NULL,
    tenant_id     VARCHAR(64)  NOT NULL,
    user_id       VARCHAR(64)  NOT NULL,
    route         VARCHAR(128) NOT NULL,
    ns            VARCHAR(4)   NOT NULL,
    idem_key      VARCHAR(128) NOT NULL,
    response      LONG VARBINARY,
    PRIMARY KEY (scope_version, tenant_id, user_id, route, ns, idem_key)
) STORE MEMORY;
";

/// Raima RDM 15 (kennel gateway): door and feeder events.
pub const RDM_EVENTS: &str = "
create table kennel_events (
    event_id   char(36) primary key,
    run_id     char(16) not null,
    kind       char(16) not null,
    at_ms      bigint not null
);
create table dedup_feeder_cmds (
    org_id     char(36) not null,
    client_id  char(36) not null,
    operation  char(32) not null,
    idem_key   char(64) not null,
    accepted   bigint not null,
    unique (org_id, client_id, operation, idem_key)
);
";

pub fn edge_steps(van: bool) -> Vec<Step> {
    if van {
        vec![
            Step::new("van_001_idempotency_keys", SOLID_IDEMPOTENCY),
            Step::new("van_002_replay_responses", SOLID_REPLAY),
        ]
    } else {
        vec![Step::new("kennel_001_events", RDM_EVENTS)]
    }
}

pub fn migrate(runner: &mut Runner, van: bool) -> Result<(), silage::evolve::EvolveError> {
    for step in edge_steps(van) {
        runner.apply(step)?;
    }
    Ok(())
}
