//! Sharing a home charger with a guest driver. The client key arrives
//! through a newtype extractor.

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use trellis::guard::Identity;
use trellis::pull::FromCx;
use trellis::{Code, Cx, Reply};

static IDEM_HEADER: http::HeaderName = http::HeaderName::from_static("idempotency-key");

pub struct RetryToken(pub String);

impl FromCx for RetryToken {
    type Rejection = Problem;

    fn from_cx(cx: &Cx) -> Result<Self, Problem> {
        cx.headers()
            .get(&IDEM_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(|s| RetryToken(s.to_owned()))
            .ok_or_else(Problem::missing_key)
    }
}

pub async fn grant(cx: Cx, who: Identity, token: RetryToken, bin: &Bin) -> Reply {
    if bin.exists(&token.0).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    let guest = cx.query("guest").unwrap_or_default();
    if guest.is_empty() {
        return Reply::status(Code::BAD_REQUEST);
    }
    crate::sharing::grant(&who, &guest).await;
    let _ = bin.put(&token.0, guest.as_bytes()).await;
    Reply::status(Code::CREATED)
}

pub async fn revoke(cx: Cx, who: Identity, RetryToken(k): RetryToken, bin: &Bin) -> Reply {
    let guest = cx.param("guest").unwrap_or_default();
    let sk = match scoped(&who.org_id, &who.user_id, "/v1/chargers/grants/revoke", &k) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if bin.exists(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    crate::sharing::revoke(&who, &guest).await;
    let _ = bin.put(sk.storage_key(), b"revoked").await;
    Reply::status(Code::NO_CONTENT)
}
