use capnp::capability::Promise;
use heed::types::{Bytes, Str};
use heed::{Database, Env};
use std::sync::Arc;

pub struct LoginParams {
    pub org_id: String,
    pub user_id: String,
    /// Client-generated idempotency key (mirrors the HTTP `Idempotency-Key` header).
    pub idempotency_key: String,
}

pub struct AuthServiceImpl {
    env: Arc<Env>,
    replies: Database<Str, Bytes>,
}

fn clean(s: &str) -> String {
    s.replace("\0", "")
}

impl AuthServiceImpl {
    pub fn start_session(&mut self, p: LoginParams) -> Promise<Vec<u8>, capnp::Error> {
        let principal = clean(&p.user_id);
        if p.org_id.contains('\0') {
            return Promise::err(capnp::Error::failed("org id contains NUL".into()));
        }
        let slot = format!("{}\0{}\0{}\0{}", p.org_id, principal, "sessions.start", p.idempotency_key);
        let env = self.env.clone();
        let replies = self.replies;
        Promise::from_future(async move {
            let r = env.read_txn().map_err(|e| capnp::Error::failed(e.to_string()))?;
            if let Some(b) = replies.get(&r, &slot).map_err(|e| capnp::Error::failed(e.to_string()))? {
                return Ok(b.to_vec());
            }
            drop(r);
            let mut w = env.write_txn().map_err(|e| capnp::Error::failed(e.to_string()))?;
            let token = b"session-token".to_vec();
            replies.put(&mut w, &slot, &token).map_err(|e| capnp::Error::failed(e.to_string()))?;
            w.commit().map_err(|e| capnp::Error::failed(e.to_string()))?;
            Ok(token)
        })
    }
}
