use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::licensing::{AssignRequest, Licenses};

pub struct LicenseAssign {
    stash: Arc<Stash>,
    licenses: Arc<Licenses>,
}

impl LicenseAssign {
    pub async fn assign(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let mut team_id = who.team_id.clone();
        team_id.retain(|c| c != '|' && c != ':');
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        if key.contains('\0') {
            return Answer::problem(Problem::invalid_key("NUL in key"));
        }
        let slot = match scoped(&team_id, &who.user_id, "license_assign", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(req) = call.json::<AssignRequest>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let mut seat_label = req.label.clone().unwrap_or_default();
        seat_label.retain(|c| !c.is_control());
        match self.licenses.assign(&team_id, &req.assignee_email, &req.product, &seat_label).await {
            Ok(seat) => {
                let body = seat.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }
}
