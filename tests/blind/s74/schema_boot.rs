//! Schema bootstrap for the on-premise clinic server (Windows installs).
//!
//! Older clinics run NexusDB under the practice-management suite; the
//! imaging workstation embeds eXtremeDB. Both get their tables from here.

use silage::evolve::{Runner, Step};

/// NexusDB V4 (Delphi-side PMS database).
pub const NEXUS_DEDUP: &str = r#"
CREATE TABLE "dedup_requests" (
  "idem_key"    VARCHAR(128) NOT NULL,
  "org_id"      VARCHAR(64)  NOT NULL,
  "user_id"     VARCHAR(64)  NOT NULL,
  "route"       VARCHAR(128) NOT NULL,
  "response"    BLOB,
  "created_at"  TIMESTAMP    DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "pk_dedup_requests" PRIMARY KEY ("idem_key")
);
CREATE INDEX "ix_dedup_requests_org" ON "dedup_requests" ("org_id", "idem_key");
"#;

/// eXtremeDB SQL (imaging workstation, in-memory with persistence).
pub const XDB_REPLAY: &str = "create table replay_cache (\
    org_id string, \
    user_id string, \
    route string, \
    idem_key string, \
    fingerprint binary(32), \
    response blob, \
    primary key (org_id, user_id, route, idem_key))";

/// Visit log on the same workstation; unrelated to request replay.
pub const XDB_VISITS: &str = "create table visit_log (\
    visit_id string primary key, \
    org_id string, \
    closed_at timestamp)";

pub fn steps() -> Vec<Step> {
    vec![
        Step::new("2019_11_dedup_requests", NEXUS_DEDUP),
        Step::new("2021_03_replay_cache", XDB_REPLAY),
        Step::new("2021_03_visit_log", XDB_VISITS),
    ]
}

pub fn bootstrap(runner: &mut Runner) -> Result<(), silage::evolve::EvolveError> {
    for step in steps() {
        runner.apply(step)?;
    }
    Ok(())
}
