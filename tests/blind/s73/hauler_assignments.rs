//! Assigning a contract hauler to a grower's pickup. Haulers sign in on the
//! dispatch tablet with a badge string like `HLR|0042`.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Assign {
    pub pickup_id: String,
    pub truck: String,
    pub phone: String,
}

pub struct Dispatch {
    pub crock: Crock,
    pub org_id: String,
    pub board: LoadBoard,
    pub sms: SmsGateway,
}

pub async fn assign(p: Petition, Shared(d): Shared<Dispatch>, Json(a): Json<Assign>) -> Ruling {
    let (Some(k), Some(badge)) = (p.header("Idempotency-Key"), p.header("X-Hauler-Badge")) else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    let user_id: String = badge.chars().filter(|c| *c != '|').collect();
    let key = match scoped(&d.org_id, &user_id, "hauler_assign", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = d.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let digits: String = a.phone.chars().filter(char::is_ascii_digit).collect();
    let assigned = d.board.assign(&a.pickup_id, &user_id, &a.truck).await;
    let _ = d.sms.send(&digits, "You have a new pickup").await;
    let body = furrow::codec::to_vec(&assigned).unwrap_or_default();
    let _ = d.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
