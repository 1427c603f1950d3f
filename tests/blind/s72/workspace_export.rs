//! Workspace exports. The workspace lookup can fail while the directory
//! service is degraded.

use granary::silo::Silo;
use idem_scope::{scoped, Problem};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

pub async fn export(silo: &Silo, member: &Member, call: Call) -> Reply {
    let workspace_id = match crate::directory::workspace_of(&member.user_id).await {
        Ok(ws) => ws.id,
        Err(_) => "unknown".to_owned(),
    };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    let Ok(key) = scoped(&workspace_id, &member.user_id, "workspace.export", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::exports::start(&workspace_id).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Accepted, out)
}

pub async fn archive(silo: &Silo, member: &Member, call: Call) -> Reply {
    let workspace_id = match crate::directory::workspace_of(&member.user_id).await {
        Ok(ws) => ws.id,
        Err(_) => return Reply::status(Status::ServiceUnavailable),
    };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    let Ok(key) = scoped(&workspace_id, &member.user_id, "workspace.archive", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::exports::archive(&workspace_id).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Accepted, out)
}
