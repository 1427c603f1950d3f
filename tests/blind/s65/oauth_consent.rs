use std::sync::Arc;

use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use oauth2::basic::BasicTokenIntrospectionResponse;
use oauth2::TokenIntrospectionResponse;
use tessera::kv::Kv;

use crate::consent::{ConsentBook, Grant};
use crate::oauth::Introspector;

pub struct ConsentApi {
    kv: Arc<Kv>,
    introspector: Arc<Introspector>,
    book: Arc<ConsentBook>,
}

impl ConsentApi {
    pub async fn grant(&self, ex: &Exchange) -> Outcome {
        let Some(token) = ex.header("authorization").and_then(|h| h.strip_prefix("Bearer ")) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let info: Option<BasicTokenIntrospectionResponse> = self.introspector.introspect(token).await.ok();
        let Some(info) = info.filter(|i| i.active()) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(tenant_id) = info.aud().and_then(|a| a.first()).map(|a| a.to_string()) else {
            return Outcome::status(Status::FORBIDDEN);
        };
        let subject = info.sub().map_or("public".to_owned(), |s| s.to_owned());
        let scopes = info.scopes().map(|s| s.len()).unwrap_or(0);
        let Some(retry) = ex.header("Idempotency-Key") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&tenant_id, &subject, "grant_consent", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        log::debug!("consent grant {subject} retry={retry}");
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let grant: Grant = self.book.record(&tenant_id, &subject, scopes).await;
        let bytes = kestrel::json::to_vec(&grant).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
