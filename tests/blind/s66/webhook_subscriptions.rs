use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use paseto::tokens::{validate_local_token, TimeBackend};
use skerry::stash::Stash;

use crate::hooks::{HookRegistry, SubscriptionForm};

pub struct SubscriptionApi {
    stash: Arc<Stash>,
    hooks: Arc<HookRegistry>,
    paseto_key: [u8; 32],
}

struct TokenIdentity {
    workspace_id: Option<String>,
    sub: String,
}

impl SubscriptionApi {
    fn identity(&self, call: &Call) -> Option<TokenIdentity> {
        let token = call.header("Authorization")?.strip_prefix("Bearer v2.local.")?;
        let full = format!("v2.local.{token}");
        let claims = validate_local_token(&full, None, &self.paseto_key, &TimeBackend::Chrono).ok()?;
        Some(TokenIdentity {
            workspace_id: claims.get("workspace_id").and_then(|v| v.as_str()).map(str::to_owned),
            sub: claims.get("sub")?.as_str()?.to_owned(),
        })
    }

    pub async fn subscribe(&self, call: Call) -> Answer {
        let Some(ident) = self.identity(&call) else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        // Personal tokens minted before workspaces existed carry no workspace claim.
        let workspace_id = ident.workspace_id.clone().unwrap_or_default();
        let slot = match scoped(&workspace_id, &ident.sub, "hook_subscribe", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(form) = call.form::<SubscriptionForm>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let events = form.events.clone().unwrap_or_else(|| vec!["*".to_owned()]);
        match self.hooks.subscribe(&workspace_id, &form.url, &events).await {
            Ok(sub) => {
                let body = sub.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }
}
