use std::sync::Arc;

use halfbrown::HashMap;
use kestrel::{Exchange, Outcome, Status};
use parking_lot::RwLock;

use crate::invites::{InviteMailer, InviteRequest};

#[derive(Hash, PartialEq, Eq, Clone)]
struct InviteKey {
    workspace_id: String,
    key: String,
}

pub struct InviteService {
    sent: RwLock<HashMap<InviteKey, String>>,
    mailer: Arc<InviteMailer>,
}

impl InviteService {
    pub async fn invite(&self, ex: &Exchange) -> Outcome {
        let Some(ident) = ex.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(retry) = ex.header("Idempotency-Key") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let retry = retry.trim();
        let probe = InviteKey { workspace_id: ident.workspace_id.clone(), key: retry.to_owned() };
        if let Some(invite_id) = self.sent.read().get(&probe) {
            return Outcome::text(Status::OK, invite_id.clone());
        }
        let req: InviteRequest = match ex.json() {
            Ok(r) => r,
            Err(_) => return Outcome::status(Status::UNPROCESSABLE_ENTITY),
        };
        let email = req.email.to_ascii_lowercase();
        log::info!("invite retry key {} for {}", retry, email);
        let invite_id = self.mailer.send(&ident.workspace_id, &email).await;
        self.sent.write().insert(probe, invite_id.clone());
        Outcome::text(Status::CREATED, invite_id)
    }
}
