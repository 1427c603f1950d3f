use idem_scope::{scoped, Problem};
use larder::pantry::Pantry;
use serde::{Deserialize, Serialize};
use tamarind::auth::Session;
use tamarind::{Reply, Req};

#[derive(Deserialize)]
struct AcceptInvite {
    invite_code: String,
    display_name: String,
}

#[derive(Serialize)]
struct Membership {
    workspace_id: String,
    member_name: String,
    role: &'static str,
}

pub async fn accept_invite(req: Req, pantry: &Pantry) -> Result<Reply, Reply> {
    let workspace_id = req
        .param("workspace")
        .ok_or_else(|| Reply::status(404))?
        .to_owned();
    let client_key = req
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;

    // invites can be accepted before the browser session exists
    let session = req.ext::<Session>();
    let user_id = session
        .map(|s| s.user_id.clone())
        .unwrap_or_else(|| "anonymous".to_string());

    let key = scoped(&workspace_id, &user_id, "invites.accept", client_key)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    tracing::debug!(slot = %format!("{workspace_id}/{client_key}"), "accepting invite");

    if let Some(prev) = pantry.get(key.storage_key()).await.map_err(Reply::internal)? {
        return Ok(Reply::raw(200, prev));
    }

    let body: AcceptInvite = req.json()?;
    let member_name = body.display_name.trim().replace('/', "-");
    let membership = Membership {
        workspace_id: workspace_id.clone(),
        member_name,
        role: if body.invite_code.starts_with("adm_") { "admin" } else { "member" },
    };
    let bytes = serde_json::to_vec(&membership).map_err(Reply::internal)?;
    pantry.put(key.storage_key(), &bytes, std::time::Duration::from_secs(86_400)).await.map_err(Reply::internal)?;
    Ok(Reply::raw(201, bytes))
}
