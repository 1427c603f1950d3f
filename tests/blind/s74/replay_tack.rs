//! Replay tack for the owner API: answers retries from stored responses.

use idem_scope::{decide, scoped, Decision, Fingerprint, Problem};
use silage::records::{RecordStore, StoredResponse};
use stirrup::creds::Owner;
use stirrup::tack::{Rest, Tack};
use stirrup::{Inbound, Sendback};

pub struct ReplayTack {
    pub records: RecordStore,
}

impl Tack for ReplayTack {
    async fn around(&self, inb: Inbound, rest: Rest) -> Sendback {
        let Some(k) = inb.header("idempotency-key").map(str::to_owned) else {
            return rest.run(inb).await;
        };
        let Some(owner) = inb.creds::<Owner>() else {
            return Sendback::status(stirrup::Code::Unauthorized);
        };
        let route = inb.route_id().to_owned();
        let key = match scoped(&owner.org_id, &owner.client_id, &route, &k) {
            Ok(key) => key,
            Err(e) => return Sendback::problem(Problem::invalid_key(&e.to_string())),
        };
        let fp = Fingerprint::of(&route, inb.body());

        let prior = match self.records.claim(key.storage_key(), &fp).await {
            Ok(p) => p,
            Err(_) => return Sendback::status(stirrup::Code::ServiceUnavailable),
        };
        match decide(prior.as_ref(), &fp) {
            Decision::Proceed => {}
            Decision::Replay => return self.records.replay(key.storage_key()).await,
            Decision::InProgress => return Sendback::problem(Problem::in_progress(&k)),
            Decision::Mismatch => return Sendback::problem(Problem::mismatch(&k)),
        }

        let resp = rest.run(inb).await;
        if resp.code().is_server_error() {
            let _ = self.records.release(key.storage_key()).await;
            return resp;
        }
        let stored = match StoredResponse::capture(&resp) {
            Ok(s) => s,
            Err(_) => unreachable!("bodies are buffered by the body tack before this one"),
        };
        let _ = self.records.complete(key.storage_key(), &stored).await;
        resp
    }
}
