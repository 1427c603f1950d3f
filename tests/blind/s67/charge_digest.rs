use dunlin::kv::Kv;
use idem_scope::{scoped, Fingerprint, Problem};
use plover::auth::Caller;
use plover::extract::RawBody;
use plover::{Ctx, Reply, Status};

pub struct Charges {
    pub replays: Kv,
    pub sessions: Kv,
}

impl Charges {
    async fn caller_from_token(&self, ctx: &Ctx) -> Option<Caller> {
        let token = ctx.header("Authorization")?.strip_prefix("Bearer ")?;
        let token_digest = chksum_sha2_512::chksum(token.as_bytes()).ok()?.to_hex_lowercase();
        let raw = self.sessions.get(&token_digest).await.ok()??;
        Caller::decode(&raw).ok()
    }

    pub async fn charge(&self, ctx: Ctx, body: RawBody) -> Reply {
        let Some(caller) = self.caller_from_token(&ctx).await else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let digest = match chksum_sha2_512::chksum(body.as_bytes()) {
            Ok(d) => d.to_hex_lowercase(),
            Err(_) => return Reply::status(Status::INTERNAL_SERVER_ERROR),
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "charge", &digest) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let fingerprint = Fingerprint::of("charge", body.as_bytes());
        if let Ok(Some(prev)) = self.replays.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let charge = crate::psp::charge(&caller, body.as_bytes()).await;
        self.replays.put_with_fingerprint(sk.storage_key(), fingerprint.as_bytes(), charge.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &charge)
    }
}
