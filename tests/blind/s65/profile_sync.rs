use std::sync::Arc;

use idem_scope::{scoped, Problem};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::profiles::{ProfilePatch, ProfileStore};

pub struct ProfileSync {
    kv: Arc<Kv>,
    profiles: Arc<ProfileStore>,
}

impl ProfileSync {
    pub async fn patch(&self, ex: &Exchange) -> Outcome {
        let Some(user_id) = ex.identity().map(|i| i.user_id.clone()) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let tenant_id = ex.identity().map(|i| i.tenant_id.clone()).unwrap_or_default();
        let locale = ex.header("accept-language").map(str::to_owned).unwrap_or_default();
        let Some(retry) = ex.header("Idempotency-Key") else {
            return Outcome::problem(Problem::missing_key());
        };
        let key = match scoped(&tenant_id, &user_id, "patch_profile", retry) {
            Ok(k) => k,
            Err(e) => return Outcome::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let patch: ProfilePatch = match ex.json() {
            Ok(p) => p,
            Err(_) => return Outcome::status(Status::BAD_REQUEST),
        };
        let profile = self.profiles.apply(&user_id, &patch, &locale).await;
        let bytes = kestrel::json::to_vec(&profile).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::OK, bytes)
    }
}
