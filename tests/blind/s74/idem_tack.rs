//! The staff API's idempotency tack: parse, scope, fingerprint, claim, run,
//! complete or release.

use std::time::Duration;

use idem_scope::{
    decide, scoped, ClaimGuard, Decision, Fingerprint, IdempotencyKey, Problem, Record, PROBLEM_CONTENT_TYPE,
};
use silage::records::{RecordStore, StoredResponse};
use stirrup::creds::Staff;
use stirrup::tack::{Rest, Tack};
use stirrup::{Code, Inbound, Sendback};

const LEASE: Duration = Duration::from_secs(300);

#[derive(Clone)]
pub struct IdemTack {
    pub records: RecordStore,
    pub header: String,
}

impl Default for IdemTack {
    fn default() -> Self {
        IdemTack { records: RecordStore::memory(), header: "Idempotency-Key".to_owned() }
    }
}

fn problem(p: Problem) -> Sendback {
    Sendback::raw(p.status(), PROBLEM_CONTENT_TYPE, p.to_json().into_bytes())
}

impl Tack for IdemTack {
    async fn around(&self, inb: Inbound, rest: Rest) -> Sendback {
        let Some(raw) = inb.header_bytes(&self.header) else {
            return problem(Problem::missing_key());
        };
        let client_key = match IdempotencyKey::parse_lenient(raw) {
            Ok(k) => k,
            Err(e) => return problem(Problem::invalid_key(&e.to_string())),
        };
        let Some(staff) = inb.creds::<Staff>() else {
            return Sendback::status(Code::Unauthorized);
        };
        let route = inb.route_id().to_owned();
        let key = match scoped(&staff.org_id, &staff.user_id, &route, client_key.as_str()) {
            Ok(k) => k,
            Err(e) => return problem(Problem::invalid_key(&e.to_string())),
        };
        let fingerprint = Fingerprint::of(&route, inb.body());

        let existing = match self.records.load(key.storage_key()).await {
            Ok(r) => r,
            Err(_) => return Sendback::status(Code::ServiceUnavailable),
        };
        match decide(existing.as_ref(), &fingerprint) {
            Decision::Proceed => {}
            Decision::Replay => return self.records.replay(key.storage_key()).await,
            Decision::InProgress => return problem(Problem::in_progress(client_key.as_str())).with_header("Retry-After", "2"),
            Decision::Mismatch => return problem(Problem::mismatch(client_key.as_str())),
        }

        match self.records.claim(key.storage_key(), Record::in_progress(fingerprint.clone()), LEASE).await {
            Ok(true) => {}
            Ok(false) => return problem(Problem::in_progress(client_key.as_str())),
            Err(_) => return Sendback::status(Code::ServiceUnavailable),
        }
        let releaser = self.records.clone();
        let release_key = key.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = releaser.release(&release_key).await;
            });
        });

        let resp = rest.run(inb).await;
        if resp.code().is_server_error() {
            return resp; // guard drops: claim released
        }
        let Ok(stored) = StoredResponse::capture(&resp) else {
            return resp; // guard drops: claim released
        };
        if self.records.complete(key.storage_key(), &stored, fingerprint).await.is_ok() {
            guard.complete();
        }
        resp
    }
}
