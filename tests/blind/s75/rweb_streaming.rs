//! Streaming passes for recorded performances, served by the rweb edge app.
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rweb::*;
use serde::{Deserialize, Serialize};
use tokio::sync::RwLock;

type PassKey = (String, String, &'static str, String);
type BodyKey = (String, String, &'static str, u64);

#[derive(Clone, Default)]
pub struct State {
    pub pass_dedup: Arc<RwLock<HashMap<BodyKey, StreamPass>>>,
    pub gifts: Arc<RwLock<HashMap<PassKey, StreamPass>>>,
    pub vod: Arc<crate::vod::Catalogue>,
}

#[derive(Deserialize, Hash, Schema)]
pub struct PassRequest {
    pub recording_id: String,
    pub quality: String,
    pub rental_hours: u16,
}

#[derive(Deserialize, Schema)]
pub struct GiftRequest {
    pub recording_id: String,
    pub recipient_email: String,
}

#[derive(Clone, Serialize, Hash, Schema)]
pub struct StreamPass {
    pub pass_id: String,
    pub playback_url: String,
    pub expires_at: String,
}

#[post("/v1/streams/passes")]
pub async fn buy_pass(
    #[filter = "crate::auth::caller"] caller: crate::auth::Caller,
    #[json] req: PassRequest,
    #[data] state: State,
) -> Result<Json<StreamPass>, Rejection> {
    let mut h = DefaultHasher::new();
    req.hash(&mut h);
    let body_hash = h.finish();
    let mut pass_dedup = state.pass_dedup.write().await;
    let pass = pass_dedup
        .entry((caller.org_id.clone(), caller.user_id.clone(), "buy_stream_pass", body_hash))
        .or_insert_with(|| state.vod.rent(&caller.org_id, &req.recording_id, &req.quality, req.rental_hours))
        .clone();
    Ok(pass.into())
}

#[post("/v1/streams/gifts")]
pub async fn gift_pass(
    #[filter = "crate::auth::caller"] caller: crate::auth::Caller,
    #[header = "idempotency-key"] key: String,
    #[json] req: GiftRequest,
    #[data] state: State,
) -> Result<Json<StreamPass>, Rejection> {
    let mut gifts = state.gifts.write().await;
    let pass = gifts
        .entry((caller.org_id.clone(), caller.user_id.clone(), "gift_stream_pass", key))
        .or_insert_with(|| state.vod.gift(&caller.org_id, &req.recording_id, &req.recipient_email))
        .clone();
    Ok(pass.into())
}

/// Weak ETag for the pass resource, so players can revalidate cheaply.
pub fn pass_etag(pass: &StreamPass) -> String {
    let mut h = DefaultHasher::new();
    pass.hash(&mut h);
    format!("W/\"{:016x}\"", h.finish())
}
