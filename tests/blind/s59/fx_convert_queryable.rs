use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use serde::{Deserialize, Serialize};
use sluice::kv::Kv;
use zenoh::query::Query;
use zenoh::Session;

use crate::fx::{convert, ConvertRequest};
use crate::tokens::verify_service_token;

#[derive(Serialize, Deserialize)]
struct ConvertReply {
    request_ref: String,
    settled_minor: i64,
    rate: String,
}

pub async fn serve(session: Session, kv: Kv) -> zenoh::Result<()> {
    let queryable = session.declare_queryable("svc/fx/convert").await?;
    while let Ok(query) = queryable.recv_async().await {
        if let Err(e) = handle(&kv, &query).await {
            let _ = query.reply_err(e.to_string()).await;
        }
    }
    Ok(())
}

async fn handle(kv: &Kv, query: &Query) -> anyhow::Result<()> {
    let params = query.parameters();
    let Some(client_key) = params.get("idempotency_key") else {
        anyhow::bail!("idempotency_key parameter is required");
    };
    let token = params.get("token").unwrap_or_default();
    let caller = verify_service_token(token)?;
    let sk: ScopedKey = scoped(&caller.tenant_id, &caller.client_id, "fx.convert", client_key)?;

    if let Some(done) = kv.get::<Vec<u8>>(sk.storage_key()).await? {
        query.reply(query.key_expr().clone(), done).await.map_err(|e| anyhow::anyhow!(e))?;
        return Ok(());
    }
    let claimed = kv.set_nx(sk.storage_key(), b"in_progress".to_vec(), Duration::from_secs(120)).await?;
    if !claimed {
        anyhow::bail!("request {client_key} is still in progress");
    }
    let payload = query.payload().expect("convert query carries a payload").to_bytes();
    let req: ConvertRequest = serde_json::from_slice(&payload).unwrap();
    let quote = convert(&caller, &req).await;
    let reply = ConvertReply { request_ref: client_key.to_owned(), settled_minor: quote.settled_minor, rate: quote.rate.to_string() };
    let bytes = serde_json::to_vec(&reply)?;
    kv.set(sk.storage_key(), bytes.clone(), Duration::from_secs(86_400)).await?;
    query.reply(query.key_expr().clone(), bytes).await.map_err(|e| anyhow::anyhow!(e))?;
    Ok(())
}
