use std::sync::Arc;

use frank_jwt::{decode, Algorithm, ValidationOptions};
use idem_scope::Problem;
use quarry::tuple::TupleStore;
use serde::Deserialize;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
struct TokenClaims {
    sub: String,
    org_id: Option<String>,
    name: Option<String>,
}

#[derive(Deserialize)]
pub struct SignRequest {
    document_id: String,
    signature_png: String,
}

pub struct Esign {
    secret: String,
    signatures: Arc<TupleStore>,
    docs: documents::Store,
    audit: audit::Trail,
}

impl Esign {
    fn claims(&self, ctx: &Ctx) -> Option<TokenClaims> {
        let token = ctx.header("authorization")?.strip_prefix("Bearer ")?;
        let (_header, payload) = decode(token, &self.secret, Algorithm::HS256, &ValidationOptions::default()).ok()?;
        serde_json::from_value(payload).ok()
    }

    pub async fn sign(&self, ctx: &Ctx, Json(req): Json<SignRequest>) -> Reply {
        let Some(claims) = self.claims(ctx) else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let org = claims.org_id.clone().unwrap_or_default();
        let route = "documents.sign";
        if let Ok(Some(prev)) = self.signatures.get(&org, &claims.sub, route, key).await {
            return Reply::bytes(Status::OK, prev);
        }

        let signer_name = claims.name.clone().unwrap_or_default();
        let envelope = self.docs.sign(&req.document_id, &req.signature_png).await;
        let signature_digest = lhash::sha256(req.signature_png.as_bytes());
        self.audit.record_signature(&req.document_id, &signer_name, &signature_digest).await;
        let _ = self.signatures.put(&org, &claims.sub, route, key, envelope.to_bytes()).await;
        Reply::bytes(Status::CREATED, envelope.to_bytes())
    }
}
