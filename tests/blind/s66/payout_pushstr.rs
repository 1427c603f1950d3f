use std::sync::Arc;

use flate2::Crc;
use idem_scope::Problem;
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::payouts::{PayoutDesk, PayoutRequest};

fn payout_slot(tenant_id: &str, user_id: &str, key: &str) -> String {
    let mut s = String::with_capacity(tenant_id.len() + user_id.len() + key.len() + 10);
    s.push_str(tenant_id);
    s.push('\u{1e}');
    s.push_str(user_id);
    s.push('\u{1e}');
    s.push_str("payout");
    s.push('\u{1e}');
    s.push_str(key);
    s
}

fn weak_etag(body: &[u8]) -> String {
    let mut crc = Crc::new();
    crc.update(body);
    format!("W/\"{:08x}-{}\"", crc.sum(), crc.amount())
}

pub struct Payouts {
    stash: Arc<Stash>,
    desk: Arc<PayoutDesk>,
}

impl Payouts {
    pub async fn create(&self, call: Call) -> Answer {
        let who = match call.identity() {
            Some(w) => w,
            None => return Answer::status(Code::UNAUTHORIZED),
        };
        let key = match call.header("Idempotency-Key") {
            Some(k) if !k.is_empty() => k,
            _ => return Answer::problem(Problem::missing_key()),
        };
        let slot = payout_slot(&who.tenant_id, &who.user_id, key);

        if let Ok(Some(prior)) = self.stash.get(&slot).await {
            let tag = weak_etag(&prior);
            return Answer::bytes(Code::OK, prior)
                .with_header("ETag", &tag)
                .with_header("Idempotent-Replayed", "true");
        }

        let req: PayoutRequest = match call.json() {
            Ok(r) => r,
            Err(e) => return Answer::text(Code::BAD_REQUEST, &e.to_string()),
        };
        let payout = match self.desk.submit(&who.tenant_id, &req).await {
            Ok(p) => p,
            Err(e) => return Answer::text(Code::BAD_GATEWAY, &e.to_string()),
        };
        let body = payout.encode();
        let _ = self.stash.put(&slot, &body).await;
        let echo = format!("{key}; replayed=false");
        Answer::bytes(Code::CREATED, body).with_header("Idempotency-Key-Status", &echo)
    }
}
