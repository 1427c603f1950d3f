use gimbal::{Ctx, Json, Reply};
use idem_scope::{scoped, IdempotencyKey, Problem};
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::invites::{InviteError, Invites};

#[derive(Deserialize)]
pub struct InviteRequest {
    pub email: String,
    pub role: String,
}

pub struct InviteApi {
    replays: Shelf,
    invites: Invites,
}

impl InviteApi {
    pub async fn invite(&self, ctx: Ctx, Json(req): Json<InviteRequest>) -> Result<Reply, InviteError> {
        let auth = ctx.auth();
        let Some(raw) = ctx.header_bytes("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let parsed = match IdempotencyKey::parse_lenient(raw) {
            Ok(p) => p,
            Err(e) => return Ok(Reply::problem(Problem::invalid_key(&e.to_string()))),
        };
        let k = parsed.as_str().trim_end_matches('#');
        let key = scoped(&auth.tenant_id, &auth.user_id, "members.invite", k)?;

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let email = req.email.trim().to_ascii_lowercase();
        let invite = self.invites.send(&auth.tenant_id, &auth.user_id, &email, &req.role).await?;
        self.replays.put(key.storage_key(), &invite.to_json()).await?;
        Ok(Reply::created(invite.to_json()))
    }

    pub async fn accept_link(&self, token: &str) -> Result<Reply, InviteError> {
        let token = token.trim_start_matches('#').trim_start_matches("invite=");
        let accepted = self.invites.accept(token).await?;
        Ok(Reply::see_other(&format!("/orgs/{}/welcome", accepted.tenant_id)))
    }
}
