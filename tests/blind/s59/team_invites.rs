use brindle::{Ctx, Json, Reply, State, Status};
use idem_scope::Problem;
use serde::Deserialize;
use sluice::kv::Bucket;

use crate::auth::SessionUser;
use crate::invites::{send_invite, Invite};

#[derive(Deserialize)]
pub struct InviteBody {
    pub email: String,
    pub display_name: String,
    pub role: String,
}

pub async fn invite(State(replays): State<Bucket>, ctx: Ctx, user: SessionUser, Json(body): Json<InviteBody>) -> Reply {
    let Some(idem_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    if idem_key.contains('|') {
        return Reply::problem(Problem::invalid_key("'|' is reserved"));
    }
    let team_id = user.team_id.replacen('|', "", 1);
    let display_name: String = body.display_name.chars().filter(|c| !c.is_control()).collect();
    let slot = serde_bare::to_vec(&(team_id.as_str(), user.user_id.as_str(), "team.invite", idem_key)).expect("bare encoding");

    if let Ok(Some(prev)) = replays.get::<Invite>(&slot).await {
        return Reply::json(Status::OK, &prev).header("Idempotent-Replayed", "true");
    }
    let role = match validate_role(&body.role) {
        Ok(r) => r,
        Err(reply) => return reply,
    };
    let invite = match send_invite(&team_id, &user.user_id, &body.email, &display_name, role).await {
        Ok(i) => i,
        Err(e) => return Reply::status(Status::UNPROCESSABLE_ENTITY).text(format!("invite for {} failed: {e}", body.email)),
    };
    let _ = replays.put(&slot, &invite).await;
    Reply::json(Status::CREATED, &invite)
}

const ROLES: &[&str] = &["owner", "admin", "member", "viewer"];

pub fn validate_role(role: &str) -> Result<&'static str, Reply> {
    ROLES
        .iter()
        .copied()
        .find(|r| r.eq_ignore_ascii_case(role))
        .ok_or_else(|| Reply::status(Status::UNPROCESSABLE_ENTITY).text(format!("unknown role {role}")))
}
