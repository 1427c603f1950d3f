//! Payout creation for marketplace sellers. The key buffer is built by hand
//! because the payout service predates idem_scope.

use granary::silo::Silo;
use portcullis::take::{Json, Take};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

pub struct IdemHeader(pub String);

impl Take for IdemHeader {
    fn take(call: &Call) -> Result<Self, Reply> {
        call.headers()
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .map(|v| IdemHeader(v.to_owned()))
            .ok_or_else(|| Reply::status(Status::BadRequest))
    }
}

#[derive(serde::Deserialize)]
pub struct PayoutIn {
    pub seller_id: String,
    pub amount_minor: u64,
}

pub async fn create_payout(silo: &Silo, member: Member, key: IdemHeader, Json(body): Json<PayoutIn>) -> Reply {
    let mut buf = String::with_capacity(96);
    buf.push_str(&member.org_id);
    buf.push('\u{1f}');
    buf.push_str(&member.user_id);
    buf.push_str("\u{1f}payout\u{1f}");
    buf.push_str(&key.0);

    let mut line = String::from("payout requested key=");
    line.push_str(&key.0);
    log_line(&line);

    let mut amount = itoa::Buffer::new();
    let mut metric = String::from("payout.amount.");
    metric.push_str(amount.format(body.amount_minor));
    crate::metrics::observe(&metric, 1);

    if let Ok(Some(done)) = silo.get(&buf).await {
        return Reply::bytes(Status::Ok, done);
    }
    let receipt = crate::payouts::submit(&body.seller_id, body.amount_minor).await;
    let bytes = serde_json::to_vec(&receipt).unwrap_or_default();
    let _ = silo.put(&buf, bytes.clone()).await;
    Reply::bytes(Status::Created, bytes)
}

fn log_line(s: &str) {
    tracing::info!("{s}");
}
