//! Student tickets for home games. The season-ticket app sends an
//! Idempotency-Key; the older game-day kiosks post the claim form as is, and
//! the kiosk path keys retries on a digest of the claim.

use lectern::card::{Kiosk, Student};
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::cubby::{Begun, Cubby};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha384};

use crate::athletics::BoxOffice;

#[derive(Serialize, Deserialize)]
pub struct ClaimIn {
    pub game_id: String,
    pub section: String,
    pub guest_passes: u8,
}

pub struct Athletics {
    pub replays: Cubby,
    pub office: BoxOffice,
    pub shards: u32,
}

fn claim_digest(claim: &ClaimIn) -> String {
    let bytes = serde_json::to_vec(claim).unwrap_or_default();
    Sha384::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Which ticket-allocation shard serves a client token (a routing choice).
fn shard_of(token: &str, shards: u32) -> u32 {
    let d = Sha384::digest(token.as_bytes());
    u32::from_be_bytes([d[0], d[1], d[2], d[3]]) % shards
}

pub async fn app_claim(ask: &Ask, card: Student, ath: &Athletics) -> Result<Tell, Hitch> {
    let token = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let route = "/v1/athletics/claims";
    let shard = shard_of(token, ath.shards);
    match ath.replays.begin(&card.tenant_id, &card.user_id, route, token).await? {
        Begun::Replay(body) => Ok(Tell::bytes(Mark::OK, body)),
        Begun::Fresh(held) => {
            let input: ClaimIn = ask.json()?;
            let seat = ath.office.allocate(shard, &card.tenant_id, &card.user_id, &input.game_id, &input.section).await?;
            let body = serde_json::to_vec(&seat)?;
            held.complete(&body).await?;
            Ok(Tell::bytes(Mark::CREATED, body))
        }
    }
}

pub async fn kiosk_claim(ask: &Ask, kiosk: Kiosk, ath: &Athletics) -> Result<Tell, Hitch> {
    let input: ClaimIn = ask.json()?;
    let user_id = ask.head("x-scanned-student").ok_or(Hitch::bad_request("scan card first"))?;
    let route = "/v1/athletics/kiosk-claims";
    match ath.replays.begin(&kiosk.tenant_id, user_id, route, &claim_digest(&input)).await? {
        Begun::Replay(body) => Ok(Tell::bytes(Mark::OK, body)),
        Begun::Fresh(held) => {
            let seat = ath.office.allocate(0, &kiosk.tenant_id, user_id, &input.game_id, &input.section).await?;
            let body = serde_json::to_vec(&seat)?;
            held.complete(&body).await?;
            Ok(Tell::bytes(Mark::CREATED, body))
        }
    }
}
