//! Operator-initiated fare-cap adjustments: a rider was charged past the
//! daily or weekly cap and the back office credits the difference.

use hopper::bay::Bay;
use idem_scope::{scoped, Fingerprint};
use wharf::badge::Operator;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::ledger::Ledger;

const ROUTE: &str = "/v1/fare-caps/adjustments";

#[derive(Decode)]
struct Adjustment {
    user_id: String,
    service_day: time::Date,
    credit_minor: i64,
    note: Option<String>,
}

pub struct CapAdjustments {
    pub replays: Bay,
    pub sessions: Bay,
    pub ledger: Ledger,
}

impl CapAdjustments {
    pub async fn adjust(&self, hail: Hail, op: Operator) -> Result<Answer, Fault> {
        let raw = hail.body();
        let adj: Adjustment = wharf::codec::from_slice(raw)?;

        // Console tablets resubmit the same form on flaky depot Wi-Fi.
        let digest = libcrux_sha2::sha256(raw);
        let tag = base45::encode(digest);
        let key = scoped(&op.org_id, &op.actor, ROUTE, &tag)?;
        let fingerprint = Fingerprint::of(ROUTE, raw);

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let credit = self
            .ledger
            .credit(&op.org_id, &adj.user_id, adj.service_day, adj.credit_minor, adj.note.as_deref())
            .await?;
        let body = wharf::codec::to_vec(&credit)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        self.replays.put_fingerprint(key.storage_key(), fingerprint.as_bytes()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }

    /// Console sessions are looked up by a digest of the bearer token, so the
    /// token itself never sits in the cache.
    pub async fn session_for(&self, hail: &Hail) -> Result<Option<Vec<u8>>, Fault> {
        let bearer = hail
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(Fault::unauthorized)?;
        let token_digest = libcrux_sha2::sha256(bearer.as_bytes());
        Ok(self.sessions.get(&base45::encode(token_digest)).await?)
    }
}
