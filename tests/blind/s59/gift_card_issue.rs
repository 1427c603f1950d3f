use std::collections::HashMap;
use std::sync::RwLock;

use canteen::{utils, Request, Response};
use jwt_simple::prelude::*;
use serde::{Deserialize, Serialize};

use crate::giftcards::{issue_card, IssueForm};

#[derive(Serialize, Deserialize, Clone)]
pub struct StoreClaims {
    pub tenant_id: String,
    pub locale: Option<String>,
}

type IssueKey = (String, String, &'static str, String);

pub struct GiftCards {
    verifier: HS256Key,
    issued: RwLock<HashMap<IssueKey, Vec<u8>>>,
}

impl GiftCards {
    pub fn issue(&self, req: &Request) -> Response {
        let Some(key) = req.headers.get("idempotency-key").cloned() else {
            return utils::make_response("Idempotency-Key required", "text/plain", 400);
        };
        let token = req.headers.get("authorization").and_then(|h| h.strip_prefix("Bearer ")).unwrap_or("");
        let claims = match self.verifier.verify_token::<StoreClaims>(token, None) {
            Ok(c) => c,
            Err(_) => return utils::make_response("invalid token", "text/plain", 401),
        };
        let principal = claims.subject.clone().unwrap_or_default();
        let locale = claims.custom.locale.clone().unwrap_or_else(|| "en-US".to_owned());
        let slot: IssueKey = (claims.custom.tenant_id.clone(), principal, "giftcards.issue", key);

        if let Some(prev) = self.issued.read().unwrap().get(&slot) {
            return utils::make_response(prev.clone(), "application/json", 200);
        }
        let form: IssueForm = match serde_json::from_slice(&req.payload) {
            Ok(f) => f,
            Err(e) => return utils::make_response(e.to_string(), "text/plain", 422),
        };
        let card = issue_card(&claims.custom.tenant_id, &form, &locale);
        let out = serde_json::to_vec(&card).unwrap_or_default();
        self.issued.write().unwrap().insert(slot, out.clone());
        utils::make_response(out, "application/json", 201)
    }
}
