use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Fingerprint, Problem, Record};
use multihash_codetable::{Code, MultihashDigest};
use radix_fmt::radix_36;
use wherry::auth::Caller;
use wherry::extract::{Body, State};
use wherry::{Ctx, Reply, Status};

#[derive(Clone)]
pub struct Ingest {
    pub vat: Arc<Vat>,
    pub sink: Arc<lake::Writer>,
}

fn short_id(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut acc, b| {
        acc.push_str(&radix_36(*b).to_string());
        acc
    })
}

/// Webhook-style ingestion: partners post event batches without any key header.
pub async fn ingest_batch(caller: Caller, State(st): State<Ingest>, Body(payload): Body) -> Result<Reply, Problem> {
    let digest_of = |b: &[u8]| Code::Sha2_256.digest(b).to_bytes();
    let route = "ingest_batch";
    let sk = scoped(&caller.org_id, &caller.api_key_id, route, &short_id(&digest_of(&payload))).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = st.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let written = st.sink.append(&caller.org_id, &payload).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = st.vat.put(sk.storage_key(), written.to_json()).await;
    Ok(Reply::bytes(Status::ACCEPTED, written.to_json()))
}

pub async fn ingest_keyed(ctx: Ctx, caller: Caller, State(st): State<Ingest>, Body(payload): Body) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let route = "ingest_keyed";
    let sk = scoped(&caller.org_id, &caller.api_key_id, route, client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let fingerprint = Fingerprint::of(route, &payload);
    let content_id = short_id(&Code::Sha2_256.digest(&payload).to_bytes());

    if let Some(done) = st.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    st.vat.claim(sk.storage_key(), Record::in_progress(fingerprint)).await.map_err(|_| Problem::in_progress(client_key))?;
    let written = match st.sink.append_with_id(&caller.org_id, &content_id, &payload).await {
        Ok(w) => w,
        Err(e) => {
            let _ = st.vat.release(sk.storage_key()).await;
            return Err(Problem::invalid_key(&e.to_string()));
        }
    };
    let _ = st.vat.complete(sk.storage_key(), written.to_json()).await;
    Ok(Reply::bytes(Status::ACCEPTED, written.to_json()))
}
