use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::{ApiKey, MaybeCaller};
use moraine::extract::Head;
use moraine::{Reply, Status};
use sextant::locker::Locker;

pub struct Guarded {
    pub locker: Locker,
    pub keys: crate::keys::KeyDirectory,
}

impl Guarded {
    pub async fn rotate_key(&self, caller: MaybeCaller, api_key: Option<ApiKey>, head: Head) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let tenant_id = match caller.as_ref().map(|c| c.tenant_id.clone()) {
            Some(t) if !t.is_empty() => t,
            _ => return Reply::status(Status::UNAUTHORIZED),
        };
        let api_key_id = api_key
            .as_ref()
            .map(|k| k.id().to_owned())
            .or_else(|| caller.as_ref().map(|c| c.user_id.clone()))
            .ok_or_else(|| Reply::status(Status::UNAUTHORIZED));
        let api_key_id = match api_key_id {
            Ok(id) => id,
            Err(r) => return r,
        };
        if key.contains('\0') || key.contains('\u{1e}') {
            return Reply::problem(Problem::invalid_key("control characters are not allowed"));
        }
        let sk = match scoped(&tenant_id, &api_key_id, "api_key_rotate", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let rotated = self.keys.rotate(&tenant_id, &api_key_id).await.unwrap_or_default();
        let _ = self.locker.put(sk.storage_key(), &rotated, Duration::from_secs(3600)).await;
        Reply::bytes(Status::OK, rotated)
    }
}
