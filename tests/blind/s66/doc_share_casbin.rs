use std::sync::Arc;

use casbin::{CoreApi, Enforcer};
use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use spin::RwLock;

use crate::docs::{Documents, ShareRequest};

pub struct DocShare {
    stash: Arc<Stash>,
    docs: Arc<Documents>,
    enforcer: Arc<RwLock<Enforcer>>,
}

impl DocShare {
    pub async fn share(&self, call: Call, doc_id: &str) -> Answer {
        let Some(tenant_id) = call.tenant_hint() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let session = call.session();
        let subject = session.map(|s| s.user_id.as_str()).unwrap_or("anonymous");

        let allowed = self.enforcer.read().enforce((subject, doc_id, "share")).unwrap_or(false);
        if !allowed {
            return Answer::status(Code::FORBIDDEN);
        }
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(tenant_id, subject, "doc_share", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(req) = call.json::<ShareRequest>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let role = req.role.as_deref().unwrap_or("viewer");
        match self.docs.share(tenant_id, doc_id, &req.email, role).await {
            Ok(link) => {
                let body = link.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }
}
