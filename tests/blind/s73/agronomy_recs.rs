//! Agronomy recommendation requests: an agronomist asks the rec engine for
//! variable-rate prescriptions for a field.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Agronomist;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use sha3_const::Sha3_256;

#[derive(Deserialize)]
pub struct RecRequest {
    pub field_id: String,
    pub crop: String,
    pub yield_goal: u32,
    pub zones: Vec<String>,
}

pub struct RecDesk {
    pub crock: Crock,
    pub engine: RecEngine,
}

pub async fn request_rx(p: Petition, Shared(desk): Shared<RecDesk>, a: Agronomist, Json(req): Json<RecRequest>) -> Ruling {
    let tag_of = |r: &RecRequest| {
        let mut h = Sha3_256::new().update(r.field_id.as_bytes()).update(r.crop.as_bytes());
        for z in &r.zones {
            h = h.update(z.as_bytes());
        }
        radix64::STD_NO_PAD.encode(h.update(&r.yield_goal.to_be_bytes()).finalize())
    };

    let key = match p.header("Idempotency-Key") {
        Some(k) => scoped(&a.org_id, &a.sub, "agronomy_rx", k),
        None => scoped(&a.org_id, &a.sub, "agronomy_rx", &tag_of(&req)),
    };
    let key = match key {
        Ok(k) => k,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = desk.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let rx = match desk.engine.prescribe(&req.field_id, &req.crop, req.yield_goal, &req.zones).await {
        Ok(rx) => rx,
        Err(e) => return Ruling::with(StatusLine::BAD_GATEWAY).text(&e.to_string()),
    };
    let body = furrow::codec::to_vec(&rx).unwrap_or_default();
    let _ = desk.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn share_rx(p: Petition, Shared(desk): Shared<RecDesk>, a: Agronomist) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    // the grower-facing link never shows the agronomist's login
    let principal = radix64::URL_SAFE.encode(&Sha3_256::new().update(a.sub.as_bytes()).finalize()[..12]);
    let key = match scoped(&a.org_id, &principal, "agronomy_share", k) {
        Ok(k) => k,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = desk.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let link = desk.engine.share_link(&a.org_id, &principal).await;
    let _ = desk.crock.put(key.storage_key(), link.clone().into_bytes()).await;
    Ruling::created().text(&link)
}
