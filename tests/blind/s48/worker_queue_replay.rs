use idem_scope::{scoped, scoped_server};
use serde::{Deserialize, Serialize};
use worker::*;

#[derive(Serialize, Deserialize, Clone)]
pub struct Replay {
    pub tenant_id: String,
    pub principal_id: String,
    pub route: String,
    pub payload: String,
}

#[event(fetch)]
async fn fetch(mut req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let h = req.headers();
    let tenant_id = h.get("x-tenant-id")?.ok_or_else(|| Error::RustError("401".into()))?;
    let principal_id = h.get("x-principal-id")?.ok_or_else(|| Error::RustError("401".into()))?;
    let ck = h.get("idempotency-key")?.ok_or_else(|| Error::RustError("400".into()))?;
    let key = scoped(&tenant_id, &principal_id, "webhooks.replay", &ck).map_err(|e| Error::RustError(e.to_string()))?;
    let kv = env.kv("IDEMPOTENCY")?;
    if let Some(prev) = kv.get(key.storage_key()).text().await? {
        return Response::ok(prev);
    }
    let payload = req.text().await?;
    let job = Replay { tenant_id, principal_id, route: "webhooks.replay".into(), payload };
    env.queue("REPLAYS")?.send(&job).await?;
    kv.put(key.storage_key(), "queued")?.execute().await?;
    Response::ok("queued")
}

#[event(queue)]
async fn consume(batch: MessageBatch<Replay>, env: Env, _ctx: Context) -> Result<()> {
    let kv = env.kv("IDEMPOTENCY")?;
    for msg in batch.messages()? {
        let r = msg.body();
        let key = scoped(&r.tenant_id, &r.principal_id, &r.route, &format!("replay:{}", msg.id()))
            .map_err(|e| Error::RustError(e.to_string()))?;
        if kv.get(key.storage_key()).text().await?.is_some() {
            msg.ack();
            continue;
        }
        let audit = scoped_server(&r.tenant_id, &r.principal_id, "webhooks.audit", msg.id()).map_err(|e| Error::RustError(e.to_string()))?;
        kv.put(audit.storage_key(), &r.payload)?.execute().await?;
        kv.put(key.storage_key(), "delivered")?.execute().await?;
        msg.ack();
    }
    Ok(())
}
