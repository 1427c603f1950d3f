use crate::idem::SpannerRecords;
use idem_scope::{scoped, Fingerprint, IdempotencyKey};
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize)]
pub struct TransferIn {
    pub from: String,
    pub to: String,
    pub cents: i64,
}

fn principal_of(auth: &auth::JWT) -> Result<(String, String)> {
    let (org_id, uid) = auth.claims.pid.split_once('/').ok_or_else(|| Error::Unauthorized("pid".into()))?;
    Ok((org_id.to_owned(), uid.to_owned()))
}

fn key_header(h: &HeaderMap) -> Result<IdempotencyKey> {
    let v = h.get("Idempotency-Key").ok_or_else(|| Error::BadRequest("Idempotency-Key required".into()))?;
    IdempotencyKey::parse_lenient(v.as_bytes()).map_err(|e| Error::BadRequest(e.to_string()))
}

pub async fn transfer(
    State(ctx): State<AppContext>,
    auth: auth::JWT,
    headers: HeaderMap,
    body: bytes::Bytes,
) -> Result<Response> {
    let records = ctx.shared_store.get::<SpannerRecords>().ok_or_else(|| Error::string("records"))?;
    let (org_id, uid) = principal_of(&auth)?;
    let ck = key_header(&headers)?;
    let key = scoped(&org_id, &uid, "transfers.create", ck.as_str()).map_err(|e| Error::BadRequest(e.to_string()))?;
    let fp = Fingerprint::of("transfers.create", &body);
    let op = async {
        records.acquire(&key, &fp).await?;
        let input: TransferIn = serde_json::from_slice(&body)?;
        anyhow::ensure!(input.cents > 0, "amount must be positive");
        anyhow::ensure!(input.from != input.to, "same account");
        let out = serde_json::json!({ "from": input.from, "to": input.to, "cents": input.cents });
        records.save_response(&key, &serde_json::to_vec(&out)?).await?;
        Ok::<_, anyhow::Error>(out)
    };
    let out = op.await.map_err(|e| Error::BadRequest(e.to_string()))?;
    format::json(out)
}

pub fn routes() -> Routes {
    Routes::new().prefix("api/transfers").add("/", post(transfer))
}
