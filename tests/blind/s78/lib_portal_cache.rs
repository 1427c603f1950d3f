//! Read-through helpers shared by the portal's edge workers.

use aquifer::tank::SyncTank;

pub fn cached_reply(replays: &SyncTank, idempotency_key: &str) -> Option<Vec<u8>> {
    replays.get(idempotency_key).ok().flatten()
}

pub fn cached_session(sessions: &SyncTank, bearer: &str) -> Option<Vec<u8>> {
    let digest = libcrux_sha2::sha256(bearer.as_bytes());
    let slot = hex::encode(digest);
    sessions.get(&slot).ok().flatten()
}
