//! Dispatching contract haulers to pick up grain from farm bins. Haulers
//! authenticate with a bearer token; growers create dispatch requests.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::scoped;
use parity_scale_codec::Encode;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Deserialize, Encode)]
pub struct DispatchReq {
    pub bin_site: String,
    pub loads: u8,
    pub earliest: String,
    pub commodity: String,
}

pub struct Dispatch {
    pub crock: Crock,
    pub haulers: HaulerRegistry,
    pub board: LoadBoard,
}

pub async fn request_pickup(Shared(d): Shared<Dispatch>, g: Grower, Json(req): Json<DispatchReq>) -> Ruling {
    let digest = Sha256::digest(req.encode());
    let key = match scoped(&g.org_id, &g.user_id, "haul_dispatch", &format!("{digest:x}")) {
        Ok(k) => k,
        Err(e) => return Ruling::with(StatusLine::BAD_REQUEST).text(&e.to_string()),
    };
    if let Ok(Some(prev)) = d.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let posted = d.board.post(&g.org_id, &req.bin_site, req.loads, &req.earliest).await;
    let body = furrow::codec::to_vec(&posted).unwrap_or_default();
    let _ = d.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

/// Haulers accept loads with their bearer token; the token is looked up by
/// its hash, never stored in clear.
pub async fn accept_load(p: Petition, Shared(d): Shared<Dispatch>) -> Ruling {
    let Some(bearer) = p.header("Authorization").and_then(|h| h.strip_prefix("Bearer ")) else {
        return Ruling::with(StatusLine::UNAUTHORIZED);
    };
    let token = SecretString::from(bearer.to_owned());
    let token_hash = radix64::STD.encode(Sha256::digest(token.expose_secret().as_bytes()));
    let Ok(Some(hauler)) = d.haulers.lookup(&token_hash).await else {
        return Ruling::with(StatusLine::UNAUTHORIZED);
    };
    let Some(load_id) = p.query("load") else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    match d.board.accept(load_id, &hauler.client_id).await {
        Ok(a) => Ruling::ok().json(&a),
        Err(e) => Ruling::with(StatusLine::CONFLICT).text(&e.to_string()),
    }
}
