//! Truck appointment system (TAS): hauliers book gate slots for pick-ups and
//! drop-offs. Called machine-to-machine by haulier dispatch systems.

use std::time::Duration;

use ballast::hold::{Claimed, Hold};
use hawser::extract::{Json, Shared};
use hawser::pass::Haulier;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::Problem;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct SlotRequest {
    pub container_no: String,
    pub move_kind: MoveKind,
    pub window_start: jiff::civil::DateTime,
    pub lane_hint: Option<u8>,
}

#[derive(Deserialize, Serialize, Clone, Copy)]
pub enum MoveKind {
    Import,
    Export,
    Empty,
}

pub struct Tas {
    pub replies: Hold,
    pub lanes: Hold,
    pub booking: tas_core::Planner,
}

fn appointment_slot(h: &Haulier, route: &str, key: &str) -> String {
    let mut s = String::with_capacity(96);
    s.push_str(&h.account_id);
    s.push('\u{0}');
    s.push_str(&h.client_id);
    s.push('\u{0}');
    s.push_str(route);
    s.push('\u{0}');
    s.push_str(key);
    s
}

fn lane_cache_key(h: &Haulier, lane: u8) -> String {
    format!("lanes:{}:{}:{}", h.account_id, h.client_id, lane)
}

pub async fn book_slot(
    tas: Shared<Tas>,
    haulier: Haulier,
    call: Call,
    Json(req): Json<SlotRequest>,
) -> Result<Answer, Snag> {
    let key = match call.header("idempotency-key") {
        Some(k) if !k.is_empty() && k.len() <= 255 => k.to_owned(),
        Some(_) => return Ok(Answer::problem(Problem::invalid_key("length"))),
        None => return Ok(Answer::problem(Problem::missing_key())),
    };
    let slot = appointment_slot(&haulier, call.route_template(), &key);

    match tas.replies.claim(&slot, Duration::from_secs(120)).await? {
        Claimed::New => {}
        Claimed::Existing(prev) => return Ok(Answer::replay(prev)),
    }

    let planned = match tas.booking.plan(&req.container_no, req.move_kind, req.window_start).await {
        Ok(p) => p,
        Err(e) => {
            tas.replies.release(&slot).await?;
            return Err(Snag::unprocessable(e.to_string()));
        }
    };

    if let Some(lane) = req.lane_hint {
        if let Err(e) = tas.lanes.put(&lane_cache_key(&haulier, lane), planned.id.as_bytes()).await {
            log::warn!("lane hint {lane} not cached: {e}");
        }
    }

    let answer = Answer::json(Status::CREATED, &planned);
    tas.replies.complete(&slot, &answer.to_bytes()).await?;
    Ok(answer)
}
