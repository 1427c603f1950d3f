use dunlin::kv::Kv;
use idem_scope::scoped;
use jsonwebtokens::{Algorithm, AlgorithmID, Verifier};
use plover::{Ctx, Reply, Status};

pub struct Webforms {
    pub kv: Kv,
    pub alg: Algorithm,
}

impl Webforms {
    fn claims(&self, ctx: &Ctx) -> Option<json::JsonValue> {
        let token = ctx.header("Authorization")?.strip_prefix("Bearer ")?;
        let verifier = Verifier::create().issuer("https://id.example.test").build().ok()?;
        verifier.verify(token, &self.alg).ok().map(|v| json::parse(&v.to_string()).ok()).flatten()
    }

    pub async fn submit(&self, ctx: Ctx) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Some(claims) = self.claims(&ctx) else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let Some(sub) = claims["sub"].as_str() else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let org_id = match claims["org_id"].as_str() {
            Some(o) => o,
            None => "global",
        };
        let Ok(sk) = scoped(org_id, sub, "webform.submit", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let entry = crate::forms::store(org_id, sub, ctx.body()).await;
        self.kv.put(sk.storage_key(), entry.to_bytes()).await.ok();
        let _ = AlgorithmID::HS256;
        Reply::json(Status::CREATED, &entry)
    }
}
