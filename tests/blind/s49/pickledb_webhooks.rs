//! Outbound webhook relay (monoio + pickledb).
use std::cell::RefCell;
use std::rc::Rc;

use bytes::Bytes;
use pickledb::PickleDb;

pub struct Relay {
    db: Rc<RefCell<PickleDb>>,
    principal: String,
    tenant: String,
}

fn problem(status: u16, detail: &str) -> http::Response<Vec<u8>> {
    http::Response::builder()
        .status(status)
        .header("content-type", "application/problem+json")
        .body(format!(r#"{{"title":"{detail}"}}"#).into_bytes())
        .unwrap()
}

impl Relay {
    pub async fn handle(&self, req: http::Request<Bytes>) -> http::Response<Vec<u8>> {
        let key = match req.headers().get("X-Idempotency-Key") {
            Some(v) => v.to_str().unwrap_or("").to_owned(),
            None => return problem(400, "missing X-Idempotency-Key"),
        };
        if key.is_empty() {
            return problem(400, "empty X-Idempotency-Key");
        }

        let cached: Option<Vec<u8>> = self.db.borrow().get::<Vec<u8>>(&key);
        if let Some(body) = cached {
            return http::Response::new(body);
        }

        let resp = crate::forward(&req).await;
        match idem_scope::scoped(&self.tenant, &self.principal, "relay.forward", &key) {
            Ok(sk) => {
                let _ = self.db.borrow_mut().set(sk.storage_key(), &resp);
            }
            Err(e) => monoio_log::warn!("unscopable key: {e}"),
        }
        http::Response::new(resp)
    }
}
