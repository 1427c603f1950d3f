//! Export booking amendments (vessel roll-over, port of discharge change,
//! reefer setpoint change) submitted by shipping lines' customer service.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::LineUser;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct BookingAmendment {
    pub booking_no: String,
    pub change: String,
    pub value: String,
}

pub struct Bookings {
    pub replies: Hold,
    pub core: booking_core::Bookings,
}

pub async fn amend_booking(b: Shared<Bookings>, u: LineUser, call: Call, Json(a): Json<BookingAmendment>) -> Result<Answer, Snag> {
    let header = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    if header.len() > 255 {
        return Ok(Answer::problem(Problem::invalid_key("longer than 255 characters")));
    }
    let k: String = header.chars().filter(|c| *c != '/' && !c.is_control()).collect();
    let booking_no: String = a.booking_no.chars().filter(|c| c.is_ascii_alphanumeric()).collect();

    let key = scoped(&u.org_id, &u.user_id, call.route_template(), &k).map_err(Snag::bad_request)?;
    if let Some(prev) = b.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let amended = b.core.amend(&booking_no, &a.change, &a.value).await?;
    let answer = Answer::json(Status::OK, &amended);
    b.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
