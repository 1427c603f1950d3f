use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use worker::*;

#[derive(Serialize, Deserialize)]
struct Seen {
    status: u16,
}

#[durable_object]
pub struct Mailbox {
    state: State,
    env: Env,
}

impl Mailbox {
    fn scope(req: &Request) -> Result<(String, String)> {
        let h = req.headers();
        let t = h.get("x-tenant-id")?.ok_or_else(|| Error::RustError("401".into()))?;
        let p = h.get("x-caller-id")?.ok_or_else(|| Error::RustError("401".into()))?;
        Ok((t, p))
    }
}

#[durable_object]
impl DurableObject for Mailbox {
    fn new(state: State, env: Env) -> Self {
        Self { state, env }
    }

    async fn fetch(&mut self, req: Request) -> Result<Response> {
        let (tenant_id, caller_id) = Self::scope(&req)?;
        let storage = self.state.storage();
        let url = req.url()?;
        let key = if url.path() == "/webhooks/partner" {
            let delivery_id = req.headers().get("x-partner-delivery")?.ok_or_else(|| Error::RustError("400".into()))?;
            scoped(&tenant_id, &caller_id, "mailbox.post", &delivery_id)
        } else {
            let ck = req.headers().get("Idempotency-Key")?.ok_or_else(|| Error::RustError("400".into()))?;
            scoped(&tenant_id, &caller_id, "mailbox.post", &ck)
        }
        .map_err(|e| Error::RustError(e.to_string()))?;
        if storage.get::<Seen>(key.storage_key()).await.is_ok() {
            return Response::ok("duplicate");
        }
        storage.put(key.storage_key(), Seen { status: 202 }).await?;
        Response::ok("accepted")
    }
}
