use ahash::RandomState;
use idem_scope::{scoped, scoped_server, Fingerprint};
use worker::*;

const SEEDS: (u64, u64, u64, u64) = (0x51, 0x7f, 0x2b, 0x93);

struct Partner {
    org_id: String,
    client_id: String,
}

async fn partner(req: &Request, env: &Env) -> Result<Partner> {
    let token = req.headers().get("authorization")?.ok_or_else(|| Error::RustError("401".into()))?;
    let partners = env.kv("PARTNERS")?;
    let org_id = partners.get(&token).text().await?.ok_or_else(|| Error::RustError("401".into()))?;
    Ok(Partner { org_id, client_id: token.chars().take(8).collect() })
}

#[event(fetch)]
async fn main(mut req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let p = partner(&req, &env).await?;
    let raw = req.bytes().await?;
    let hasher = RandomState::with_seeds(SEEDS.0, SEEDS.1, SEEDS.2, SEEDS.3);
    let body_id = format!("{:016x}", hasher.hash_one(&raw));
    let kv = env.kv("INTAKE_IDEMPOTENCY")?;
    let key = match req.headers().get("Idempotency-Key")? {
        Some(ck) => scoped(&p.org_id, &p.client_id, "intake", &ck),
        None => scoped(&p.org_id, &p.client_id, "intake", &body_id),
    }
    .map_err(|e| Error::RustError(e.to_string()))?;
    let fp = Fingerprint::of("intake", &raw);
    if let Some(prev) = kv.get(key.storage_key()).bytes().await? {
        if prev.len() >= 32 && &prev[..32] == fp.as_bytes() {
            return Response::from_bytes(prev[32..].to_vec());
        }
        return Response::error("key reused with another payload", 422);
    }
    let mut stored = fp.as_bytes().to_vec();
    stored.extend_from_slice(b"{\"accepted\":true}");
    kv.put_bytes(key.storage_key(), &stored)?.execute().await?;
    let mirror = scoped_server(&p.org_id, &p.client_id, "intake.mirror", &body_id).map_err(|e| Error::RustError(e.to_string()))?;
    kv.put(mirror.storage_key(), "pending")?.execute().await?;
    Response::from_bytes(b"{\"accepted\":true}".to_vec())
}
