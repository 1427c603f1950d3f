//! Booking confirmation for the hotel channel manager. Sessions are cookie
//! based; a session may outlive the user it belonged to.

use granary::crib::Crib;
use portcullis::session::Session;
use portcullis::{Call, Reply, Status};

pub async fn confirm(crib: &Crib, sess: &Session, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Some(account_id) = sess.account_id.clone() else { return Reply::status(Status::Unauthorized) };
    let user = sess.user_id.clone().unwrap_or_default();
    let greeting_name = sess.display_name.clone().unwrap_or_default();
    if let Ok(Some(prev)) = crib.get(&account_id, &user, "booking.confirm", k).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::bookings::confirm(&account_id, call.body(), &greeting_name).await;
    let _ = crib.put(&account_id, &user, "booking.confirm", k, out.clone()).await;
    Reply::bytes(Status::Created, out)
}
