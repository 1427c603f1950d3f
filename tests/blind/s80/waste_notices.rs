//! MARPOL waste notifications: vessels must notify ship-generated waste
//! before arrival; the terminal books a reception facility.

use std::time::Duration;

use ballast::hold::{Claimed, Hold};
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub enum WasteKind {
    OilyBilge,
    Sewage,
    Garbage,
    ScrubberWashWater,
}

#[derive(Deserialize)]
pub struct WasteNotice {
    pub call_ref: String,
    pub kind: WasteKind,
    pub cubic_m: f32,
}

pub struct WasteDesk {
    pub replies: Hold,
    pub reception: reception::Facilities,
}

pub async fn notify(desk: Shared<WasteDesk>, a: Agent, call: Call, Json(n): Json<WasteNotice>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&a.account_id, &a.user_id, call.route_template(), k).map_err(Snag::bad_request)?;

    if let Claimed::Existing(prev) = desk.replies.claim(key.storage_key(), Duration::from_secs(120)).await? {
        return Ok(Answer::replay(prev));
    }

    let facility = match n.kind {
        WasteKind::OilyBilge => desk.reception.slop_barge(&n.call_ref, n.cubic_m).await,
        WasteKind::Sewage => desk.reception.sewage_truck(&n.call_ref, n.cubic_m).await,
        WasteKind::Garbage => desk.reception.skip(&n.call_ref, n.cubic_m).await,
        WasteKind::ScrubberWashWater => todo!("scrubber wash water reception is not contracted yet"),
    };

    let answer = match facility {
        Ok(f) => Answer::json(Status::CREATED, &f),
        Err(e) => {
            desk.replies.release(key.storage_key()).await?;
            return Err(Snag::unprocessable(e.to_string()));
        }
    };
    desk.replies.complete(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
