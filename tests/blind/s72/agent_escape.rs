//! Support-agent actions on customer tickets. Agent ids are LDAP paths like
//! `ou=emea/cn=jdoe`, so they are escaped before use.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::{Call, Reply, Status};

pub async fn refund_ticket(silo: &Silo, org_id: &str, call: Call) -> Reply {
    let Some(agent) = call.header("x-agent-dn") else { return Reply::status(Status::Unauthorized) };
    let principal = agent.replace('/', "%2F");
    let dn_for_audit = agent.replace('/', " > ");
    crate::audit::note(org_id, &dn_for_audit);
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(org_id, &principal, "ticket.refund", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::tickets::refund(org_id, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    let location = format!("/v1/tickets/{}/refunds/{}", org_id, k.replace('/', "%2F"));
    Reply::bytes(Status::Created, out).with_header("location", &location)
}
