//! Replay log for the partner API, kept in Postgres. Version 1 stores one
//! BYTEA row key per request; version 2 stores the scope as columns.
use idem_scope::ScopedKey;
use loft::pinrail::PinRail;
use loft::LoftError;
use proscenium::pass::Promoter;
use proscenium::usher::Aisle;
use proscenium::{Curtain, Cue};

pub struct PgReplayLog {
    rail: PinRail,
}

impl PgReplayLog {
    pub fn new(rail: PinRail) -> Self {
        Self { rail }
    }

    fn row_key(org: &str, user: &str, route: &str, key: &str) -> Vec<u8> {
        [org.as_bytes(), b"\0", user.as_bytes(), b"\0", route.as_bytes(), b"\0", key.as_bytes()].concat()
    }

    pub async fn lookup(&self, org: &str, user: &str, route: &str, key: &str) -> Result<Option<Vec<u8>>, LoftError> {
        self.rail
            .query("SELECT response FROM partner_replay_log WHERE row_key = $1")
            .bind(Self::row_key(org, user, route, key))
            .maybe()
            .await
    }

    pub async fn record(&self, org: &str, user: &str, route: &str, key: &str, response: &[u8]) -> Result<(), LoftError> {
        self.rail
            .query("INSERT INTO partner_replay_log (row_key, response) VALUES ($1, $2) ON CONFLICT (row_key) DO NOTHING")
            .bind(Self::row_key(org, user, route, key))
            .bind(response)
            .run()
            .await
            .map(|_| ())
    }

    pub async fn lookup_v2(&self, sk: &ScopedKey) -> Result<Option<Vec<u8>>, LoftError> {
        let c = sk.columns();
        self.rail
            .query("SELECT response FROM partner_replay_log_v2 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .maybe()
            .await
    }
}

/// Partner gateway step: answers retries from the v1 log.
pub async fn partner_replay(cue: Cue, partner: Promoter, log: &PgReplayLog, aisle: Aisle<'_>) -> Curtain {
    let Some(key) = cue.header("Idempotency-Key").map(str::to_owned) else {
        return aisle.walk(cue).await;
    };
    let route = cue.route_template().to_owned();
    match log.lookup(&partner.account_id, &partner.client_id, &route, &key).await {
        Ok(Some(stored)) => return Curtain::replay(Some(stored)),
        Ok(None) => {}
        Err(_) => return Curtain::new(503),
    }
    let answer = aisle.walk(cue).await;
    if answer.status() < 500 {
        let _ = log.record(&partner.account_id, &partner.client_id, &route, &key, &answer.to_stored()).await;
    }
    answer
}
