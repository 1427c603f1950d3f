use std::fmt::Write as _;
use std::sync::Arc;

use gatehouse::http::{HeaderMap, Response, StatusCode};
use gatehouse::Auth;
use ledgerkit::kv::Kv;

/// Key bytes as laid out in the `replies` keyspace.
pub struct KeyBuf(pub String);

impl KeyBuf {
    pub fn for_request(tenant_id: &str, user_id: &str, route: &str, idem: &str) -> Self {
        let mut s = String::with_capacity(tenant_id.len() + user_id.len() + route.len() + idem.len() + 3);
        write!(s, "{tenant_id}\u{1f}{user_id}\u{1f}{route}\u{1f}{idem}").expect("writing to a String cannot fail");
        KeyBuf(s)
    }
}

pub struct Replies {
    kv: Arc<Kv>,
}

fn header_key(headers: &HeaderMap) -> Option<String> {
    headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned)
}

impl Replies {
    pub async fn close_ticket(&self, auth: &Auth, headers: &HeaderMap, ticket_id: &str) -> anyhow::Result<Response> {
        let Some(idem) = header_key(headers) else {
            return Ok(Response::status(StatusCode::BAD_REQUEST));
        };
        let kb = KeyBuf::for_request(&auth.tenant_id, &auth.user_id, "tickets.close", &idem);
        if let Some(prev) = self.kv.get(&kb.0).await? {
            return Ok(Response::bytes(StatusCode::OK, prev));
        }
        let out = helpdesk::close(&auth.tenant_id, ticket_id).await?;
        self.kv.put(&kb.0, out.clone()).await?;
        Ok(Response::bytes(StatusCode::OK, out))
    }

    pub async fn reopen_ticket(&self, auth: &Auth, headers: &HeaderMap, ticket_id: &str) -> anyhow::Result<Response> {
        let Some(idem) = header_key(headers) else {
            return Ok(Response::status(StatusCode::BAD_REQUEST));
        };
        let packed = bincode::serialize(&(auth.tenant_id.as_str(), auth.user_id.as_str(), idem.as_str()))?;
        if let Some(prev) = self.kv.get(&packed).await? {
            return Ok(Response::bytes(StatusCode::OK, prev));
        }
        let out = helpdesk::reopen(&auth.tenant_id, ticket_id).await?;
        self.kv.put(&packed, out.clone()).await?;
        Ok(Response::bytes(StatusCode::OK, out))
    }
}
