use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use ferrum::kv::SharedKv;
use ferrum::web::{Middleware, Next, Req, Resp};
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Clone)]
pub struct RequestScope {
    pub tenant_id: String,
    pub principal_id: String,
    pub route: String,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    fingerprint: [u8; 32],
    status: u16,
    body: Vec<u8>,
}

pub struct BodyDedup {
    store: Arc<SharedKv>,
}

impl Middleware for BodyDedup {
    fn call<'a>(&'a self, req: Req, next: Next<'a>) -> Pin<Box<dyn Future<Output = Resp> + Send + 'a>> {
        Box::pin(async move {
            let Some(ctx) = req.extensions().get::<RequestScope>().cloned() else {
                return Resp::problem(Problem::invalid_key("unauthenticated"));
            };
            let (head, body) = req.into_parts_buffered().await;
            let mut hasher = Sha256::new();
            hasher.update(ctx.route.as_bytes());
            hasher.update(&body);
            let digest = hasher.finalize();
            let key = match scoped(&ctx.tenant_id, &ctx.principal_id, &ctx.route, &format!("{:x}", digest)) {
                Ok(k) => k,
                Err(e) => return Resp::problem(Problem::invalid_key(&e.to_string())),
            };
            if let Ok(Some(raw)) = self.store.get(key.storage_key()).await {
                if let Ok(e) = serde_json::from_slice::<Entry>(&raw) {
                    return Resp::from_parts(e.status, e.body).with_header("Idempotent-Replayed", "true");
                }
            }
            let resp = next.run(Req::from_parts(head, body)).await;
            let (status, out) = resp.buffered().await;
            let entry = Entry { fingerprint: digest.into(), status, body: out.clone() };
            if let Ok(encoded) = serde_json::to_vec(&entry) {
                let _ = self.store.set(key.storage_key(), &encoded).await;
            }
            Resp::from_parts(status, out)
        })
    }
}
