use idem_scope::scoped;
use nats::jetstream::JetStream;
use nats::kv::Store;
use serde::Deserialize;

#[derive(Deserialize)]
struct GrantCredits {
    account_id: String,
    credits: u64,
    reason: String,
}

fn kv_key(sk: &idem_scope::ScopedKey) -> String {
    hex::encode(sk.storage_key())
}

fn handle(msg: &nats::Message, replies: &Store, js: &JetStream) -> anyhow::Result<Vec<u8>> {
    let hdrs = msg.headers.as_ref().ok_or_else(|| anyhow::anyhow!("headers required"))?;
    let idem = hdrs
        .get("Idempotency-Key")
        .and_then(|vals| vals.iter().next())
        .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?
        .clone();
    let tenant_id: String = match hdrs.get("Tenant-Id").and_then(|v| v.iter().next()) {
        Some(t) => t.to_string(),
        None => Default::default(),
    };
    let caller = hdrs
        .get("Caller-Id")
        .and_then(|v| v.iter().next())
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("Caller-Id required"))?;

    let route = msg.subject.as_str();
    let sk = scoped(&tenant_id, &caller, route, &idem)?;
    let key = kv_key(&sk);
    if let Some(prev) = replies.get(&key)? {
        return Ok(prev);
    }

    let grant: GrantCredits = serde_json::from_slice(&msg.data)?;
    js.publish(
        "ledger.credits",
        serde_json::to_vec(&serde_json::json!({
            "tenant_id": tenant_id,
            "account_id": grant.account_id,
            "credits": grant.credits,
            "reason": grant.reason,
        }))?,
    )?;
    let reply = serde_json::to_vec(&serde_json::json!({ "granted": grant.credits }))?;
    replies.put(&key, reply.clone())?;
    Ok(reply)
}

pub fn run(nc: nats::Connection) -> anyhow::Result<()> {
    let js = nats::jetstream::new(nc.clone());
    let replies = js.key_value("credit-grant-replies")?;
    let sub = nc.queue_subscribe("billing.credits.grant", "credits")?;
    for msg in sub.messages() {
        match handle(&msg, &replies, &js) {
            Ok(body) => msg.respond(body)?,
            Err(e) => msg.respond(format!("{{\"error\":\"{e}\"}}"))?,
        }
    }
    Ok(())
}
