use std::sync::Arc;
use std::time::Duration;

use branca::Branca;
use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use wicket::extract::RawBody;
use wicket::{Ctx, Reply, Status};

const GUEST_USER: &str = "guest";
const TOKEN_TTL: Duration = Duration::from_secs(900);

pub struct KioskPrints {
    branca_key: [u8; 32],
    vault: Arc<Vault>,
    spooler: spool::Client,
}

impl KioskPrints {
    fn token_user(&self, ctx: &Ctx) -> Option<String> {
        let token = ctx.header("x-kiosk-session")?;
        let codec = Branca::new(&self.branca_key).ok()?;
        let raw = codec.decode(token, TOKEN_TTL.as_secs() as u32).ok()?;
        String::from_utf8(raw).ok()
    }

    pub async fn submit(&self, ctx: &Ctx, RawBody(document): RawBody) -> Reply {
        let Some(tenant_id) = ctx.header("x-tenant-id") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let user_id = self.token_user(ctx).unwrap_or_else(|| GUEST_USER.to_owned());
        let sk = match scoped(tenant_id, &user_id, "prints.submit", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let copies = ctx.query("copies").and_then(|c| c.parse::<u8>().ok()).unwrap_or(1);
        let job = match self.spooler.enqueue(tenant_id, &document, copies).await {
            Ok(job) => job,
            Err(e) => return Reply::text(Status::SERVICE_UNAVAILABLE, e.to_string()),
        };
        let _ = self.vault.put(sk.storage_key(), job.id.clone().into_bytes()).await;
        Reply::bytes(Status::ACCEPTED, job.id.into_bytes())
    }
}
