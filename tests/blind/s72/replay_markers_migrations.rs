//! Migrations for the replay markers kept by the notification worker.

use granary::evolve::{Migrator, Step};

const V1_REPLAY_MARKERS: &str = r"
CREATE TABLE replay_markers (
    id          BIGSERIAL,
    org_id      TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    route       TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX replay_markers_once ON replay_markers (idem_key);
";

const V2_DIGEST_JOBS: &str = r"
CREATE TABLE digest_jobs (
    job_id  TEXT PRIMARY KEY,
    run_at  TIMESTAMPTZ NOT NULL
);
";

const V3_REPLAY_SCOPE: &str = r"
CREATE TABLE replay_markers_v2 (
    org_id      TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    route       TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (org_id, user_id, route, idem_key)
);
";

pub fn steps() -> Vec<Step> {
    vec![
        Step::new(1, "create replay_markers", V1_REPLAY_MARKERS),
        Step::new(2, "digest jobs", V2_DIGEST_JOBS),
        Step::new(3, "scoped replay markers", V3_REPLAY_SCOPE),
    ]
}

pub async fn migrate(m: &Migrator) -> anyhow::Result<()> {
    m.run(steps()).await
}
