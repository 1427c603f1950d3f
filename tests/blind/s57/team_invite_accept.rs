use std::sync::Arc;

use http_types::{Request, Response, StatusCode};
use lru_time_cache::LruCache;
use parking_lot::Mutex;

use crate::teams::{Invitations, Membership};
use crate::tokens::decode_session;

pub struct InviteApi {
    invitations: Invitations,
    accepted: Mutex<LruCache<(String, String, String, String), Membership>>,
}

impl InviteApi {
    pub async fn accept(&self, mut req: Request) -> http_types::Result<Response> {
        let session = decode_session(req.header("cookie").map(|v| v.as_str()))?;
        let team_id = if let Some(team) = session.active_team.as_ref() {
            team.id.clone()
        } else {
            "".to_owned()
        };
        let Some(client_key) = req.header("Idempotency-Key").map(|v| v.last().to_string()) else {
            return Ok(Response::new(StatusCode::BadRequest));
        };
        let Some(user_id) = session.user_id.clone() else {
            return Ok(Response::new(StatusCode::Unauthorized));
        };

        let slot = (team_id.clone(), user_id.clone(), "invites.accept".to_owned(), client_key);
        if let Some(m) = self.accepted.lock().get(&slot).cloned() {
            let mut res = Response::new(StatusCode::Ok);
            res.set_body(serde_json::to_vec(&m)?);
            return Ok(res);
        }

        let token: String = req.body_string().await?;
        let membership = self.invitations.accept(&team_id, &user_id, token.trim()).await?;
        self.accepted.lock().insert(slot, membership.clone());

        let mut res = Response::new(StatusCode::Created);
        res.set_body(serde_json::to_vec(&membership)?);
        Ok(res)
    }
}
