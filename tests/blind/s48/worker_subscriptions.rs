use idem_scope::{scoped, Fingerprint};
use serde::Deserialize;
use worker::*;

#[derive(Deserialize)]
struct Plan {
    plan: String,
    seats: u32,
}

struct Caller {
    account_id: String,
    client_id: String,
}

struct Claims<'a> {
    kv: &'a kv::KvStore,
}

impl<'a> Claims<'a> {
    async fn start(&self, key: &str, fp: &Fingerprint) -> Result<bool> {
        if self.kv.get(key).bytes().await?.is_some() {
            return Ok(false);
        }
        self.kv.put_bytes(key, fp.as_bytes())?.expiration_ttl(300).execute().await?;
        Ok(true)
    }
    async fn finish(&self, key: &str, body: &str) -> Result<()> {
        self.kv.put(key, body)?.expiration_ttl(86_400).execute().await?;
        Ok(())
    }
}

fn price(p: &Plan) -> u64 {
    match p.plan.as_str() {
        "team" => 12 * u64::from(p.seats),
        "business" => 30 * u64::from(p.seats),
        other => panic!("unknown plan {other}"),
    }
}

#[event(fetch)]
async fn fetch(mut req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let caller = Caller {
        account_id: req.headers().get("cf-account")?.ok_or_else(|| Error::RustError("401".into()))?,
        client_id: req.headers().get("cf-client")?.ok_or_else(|| Error::RustError("401".into()))?,
    };
    let ck = req.headers().get("Idempotency-Key")?.ok_or_else(|| Error::RustError("400".into()))?;
    let key = scoped(&caller.account_id, &caller.client_id, "subscriptions.create", &ck).map_err(|e| Error::RustError(e.to_string()))?;
    let body = req.bytes().await?;
    let fp = Fingerprint::of("subscriptions.create", &body);
    let kv = env.kv("SUBS_IDEMPOTENCY")?;
    let claims = Claims { kv: &kv };
    if !claims.start(key.storage_key(), &fp).await? {
        return Response::error("in progress", 409);
    }
    let plan: Plan = match serde_json::from_slice(&body) {
        Ok(p) => p,
        Err(_) => {
            kv.delete(key.storage_key()).await?;
            return Response::error("bad plan", 400);
        }
    };
    let total = if plan.seats > 0 { price(&plan) } else { unreachable!("zero seats rejected upstream") };
    let out = format!("{{\"total\":{}}}", total);
    claims.finish(key.storage_key(), &out).await?;
    Response::ok(out)
}
