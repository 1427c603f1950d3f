//! Cruise terminal: shore excursion desk bookings and luggage drop slots,
//! booked by cruise lines and by tour operators working for them.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Partner;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct LuggageSlot {
    pub ship: String,
    pub sailing: String,
    pub pax: u16,
    pub slot_start: String,
}

pub struct CruiseDesk {
    pub replies: Hold,
    pub slots: luggage::Planner,
    pub stats: cadence_stats::Client,
}

pub async fn book_luggage_slot(desk: Shared<CruiseDesk>, partner: Partner, call: Call, Json(s): Json<LuggageSlot>) -> Result<Answer, Snag> {
    let Some(k) = call.header("Idempotency-Key") else {
        return Ok(Answer::problem(Problem::missing_key()));
    };

    let org_id = partner.org_id.as_deref().unwrap_or("public");
    let operator = partner.operator_code.as_deref().unwrap_or("direct");
    desk.stats.incr(&format!("luggage.booked.{operator}"));

    let key = scoped(org_id, &partner.client_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = desk.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let slot = desk.slots.book(&s.ship, &s.sailing, s.pax, &s.slot_start).await?;
    let answer = Answer::json(Status::CREATED, &slot);
    desk.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
