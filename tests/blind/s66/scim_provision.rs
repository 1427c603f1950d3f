use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::directory::{Directory, ScimUser};

/// SCIM 2.0 provisioning endpoint called by identity providers.
pub struct ScimProvisioning {
    stash: Arc<Stash>,
    directory: Arc<Directory>,
}

impl ScimProvisioning {
    pub async fn create_user(&self, call: Call) -> Answer {
        let Some(conn) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        // Connector subjects arrive as "/connectors/okta-prod/".
        let subject = conn.sub.trim_matches('/');
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(&conn.tenant_id, subject, "scim_create_user", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::CREATED, prev);
        }

        let Ok(user) = call.json::<ScimUser>() else {
            return Answer::text(Code::BAD_REQUEST, "{\"schemas\":[\"urn:ietf:params:scim:api:messages:2.0:Error\"]}");
        };
        let phone = user.phone.as_deref().map(|p| p.replace(['(', ')', ' ', '-'], ""));
        match self.directory.provision(&conn.tenant_id, &user, phone.as_deref()).await {
            Ok(created) => {
                let body = created.to_scim_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }
}
