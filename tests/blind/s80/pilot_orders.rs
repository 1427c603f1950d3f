//! Pilotage orders: a vessel agent (or the pilot station itself, on behalf of
//! an agent) orders a pilot for an inbound or outbound passage.

use ballast::hold::SyncHold;
use hawser::blocking::{Answer, Call};
use hawser::pass::Pilot;
use hawser::{Snag, Status};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct PilotOrder {
    pub imo: String,
    pub passage: String,
    pub boarding_at: String,
    /// Agent user the order is placed for; the pilot station books for agents.
    pub on_behalf_of: Option<String>,
}

pub fn order_pilot(replies: &SyncHold, call: &Call) -> Result<Answer, Snag> {
    let pilot: Pilot = call.pass().ok_or_else(Snag::unauthorized)?;
    let order: PilotOrder = call.json()?;
    let route = call.route_template();

    let principal = order.on_behalf_of.clone().unwrap_or_else(|| pilot.uid.clone());

    let slot = call
        .header("Idempotency-Key")
        .map(|k| pilot.org_id.clone() + "|" + &principal + "|" + route + "|" + k);
    let Some(slot) = slot else {
        return Ok(Answer::status(Status::BAD_REQUEST));
    };

    if let Some(prev) = replies.get(&slot)? {
        return Ok(Answer::replay(prev));
    }

    let booking = pilot_roster::assign(&order.imo, &order.passage, &order.boarding_at)
        .map_err(|e| Snag::unprocessable(e.to_string()))?;
    let roster_line = pilot.org_id.clone() + "/" + &booking.pilot_no + "/" + &order.boarding_at;
    pilot_roster::publish(&roster_line);

    let answer = Answer::json(Status::CREATED, &booking);
    replies.put(&slot, &answer.to_bytes())?;
    Ok(answer)
}
