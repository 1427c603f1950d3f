use idem_scope::{Component, ScopeError};
use kestrel::extract::{FromRequest, Head};
use kestrel::Status;
use tessera::kv::Kv;

pub const SEP: &str = "\u{1e}";

/// The client's retry token for a refund.
pub struct RetryToken(pub String);

impl FromRequest for RetryToken {
    type Rejection = Status;

    fn from_request(head: &Head) -> Result<Self, Status> {
        head.headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .map(|v| RetryToken(v.to_owned()))
            .ok_or(Status::BAD_REQUEST)
    }
}

#[derive(Default)]
pub struct RefundKey {
    parts: Vec<String>,
}

impl RefundKey {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn part(mut self, value: &str, which: Component) -> Result<Self, ScopeError> {
        if value.is_empty() {
            return Err(ScopeError::Missing(which));
        }
        if value.contains(SEP) {
            return Err(ScopeError::ContainsSeparator(which));
        }
        self.parts.push(value.to_owned());
        Ok(self)
    }

    pub fn finish(self) -> String {
        self.parts.join(SEP)
    }
}

pub async fn refund(head: Head, token: RetryToken, store: &Kv) -> Result<Vec<u8>, Status> {
    let caller = head.identity().ok_or(Status::UNAUTHORIZED)?;
    let memo = head.query("memo").map(|m| m.replace('|', " ")).unwrap_or_default();
    let bad = |_| Status::BAD_REQUEST;
    let key = RefundKey::new()
        .part(&caller.tenant_id, Component::Tenant).map_err(bad)?
        .part(&caller.user_id, Component::Principal).map_err(bad)?
        .part("refund", Component::Route).map_err(bad)?
        .part(&token.0, Component::Key).map_err(bad)?
        .finish();
    if let Some(done) = store.get(&key).await.map_err(|_| Status::SERVICE_UNAVAILABLE)? {
        return Ok(done);
    }
    let body = format!("{{\"status\":\"queued\",\"memo\":\"{memo}\"}}").into_bytes();
    store.put(&key, body.clone()).await.map_err(|_| Status::SERVICE_UNAVAILABLE)?;
    Ok(body)
}
