//! Bridge from the core-banking AMQP 1.0 feed (ntex-amqp) into the ledger.
//! The same dedup table protects the HTTP ingest path.

use granary::silo::Silo;
use ntex_amqp::codec::protocol::MessageId;
use ntex_amqp::types::Message;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

#[derive(serde::Serialize)]
struct DedupRow<'a> {
    tenant_id: &'a str,
    principal_id: &'a str,
    route: &'a str,
    key: &'a str,
}

pub async fn http_ingest(silo: &Silo, m: &Member, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let row = serde_json::to_string(&DedupRow { tenant_id: &m.org_id, principal_id: &m.user_id, route: "ledger.ingest", key: k }).unwrap_or_default();
    if silo.exists(&row).await.unwrap_or(false) {
        return Reply::status(Status::Ok);
    }
    crate::ledger::ingest(call.body()).await;
    let _ = silo.put(&row, Vec::new()).await;
    Reply::status(Status::Accepted)
}

pub async fn on_transfer(silo: &Silo, msg: &Message) -> anyhow::Result<()> {
    let Some(MessageId::String(mid)) = msg.properties().and_then(|p| p.message_id.clone()) else { return Ok(()) };
    let tenant = msg.app_properties().and_then(|a| a.get("tenant")).map(|v| v.to_string()).ok_or_else(|| anyhow::anyhow!("no tenant"))?;
    let row = serde_json::to_string(&DedupRow { tenant_id: &tenant, principal_id: "core-banking", route: "ledger.ingest", key: &mid }).unwrap_or_default();
    tracing::debug!(message_id = %mid, "transfer received");
    if silo.exists(&row).await? {
        return Ok(());
    }
    crate::ledger::ingest(msg.body().as_ref()).await;
    silo.put(&row, Vec::new()).await?;
    Ok(())
}
