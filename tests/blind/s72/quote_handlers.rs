//! Price quotes. v1 is kept for two legacy partners; v2 is what the SDKs use.

use granary::silo::Silo;
use idem_scope::{scoped, Problem};
use portcullis::hdr::HeaderName;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

static IDEM_HEADER: HeaderName = HeaderName::from_static("idempotency-key");

pub struct QuoteState {
    pub replies: Silo,
}

pub async fn quote_v1(state: &QuoteState, call: Call) -> Reply {
    let idem = call.headers().get(&IDEM_HEADER).and_then(|v| v.to_str().ok());
    let Some(idem) = idem else {
        return Reply::problem(Problem::missing_key());
    };
    let request_id = call.header("x-request-id").unwrap_or("-");
    tracing::info!(request_id, "quote v1");
    match state.replies.get(idem).await {
        Ok(Some(prev)) => Reply::bytes(Status::Ok, prev),
        Ok(None) => {
            let q = crate::pricing::quote(call.body()).await;
            let _ = state.replies.put(idem, q.encode()).await;
            Reply::json(Status::Created, &q)
        }
        Err(_) => Reply::problem(Problem::in_progress(idem)),
    }
}

pub async fn quote_v2(state: &QuoteState, call: Call) -> Reply {
    let Some(member) = call.ext::<Member>() else {
        return Reply::status(Status::Unauthorized);
    };
    let Some(idem) = call.headers().get(&IDEM_HEADER).and_then(|v| v.to_str().ok()) else {
        return Reply::problem(Problem::missing_key());
    };
    let key = match scoped(&member.org_id, &member.user_id, call.route(), idem) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = state.replies.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let q = crate::pricing::quote(call.body()).await;
    let _ = state.replies.put(key.storage_key(), q.encode()).await;
    Reply::json(Status::Created, &q)
}
