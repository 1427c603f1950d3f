use std::time::Duration;

use bitcoin_hashes::{sha512, Hash};
use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;

#[derive(Deserialize, Serialize)]
pub struct InviteMember {
    pub email: String,
    pub role: String,
}

pub struct Members {
    pub locker: Locker,
    pub throttle: Locker,
    pub directory: crate::directory::Directory,
}

impl Members {
    pub async fn invite(&self, caller: Caller, head: Head, Json(inv): Json<InviteMember>) -> Reply {
        if head.header("Idempotency-Key").is_none() {
            return Reply::problem(Problem::missing_key());
        }
        let inviter_hash = sha512::Hash::hash(caller.user_id().as_bytes()).to_string();
        let _ = self.throttle.put(&inviter_hash, b"1", Duration::from_secs(60)).await;

        let payload = serde_json::to_vec(&inv).unwrap_or_default();
        let sk = scoped(caller.tenant_id(), caller.user_id(), "member_invite", &sha512::Hash::hash(&payload).to_string());
        let Ok(sk) = sk else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let member = self.directory.invite(caller.tenant_id(), &inv.email, &inv.role).await.unwrap_or_default();
        let _ = self.locker.put(sk.storage_key(), &member, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, member)
    }

    pub async fn remove(&self, caller: Caller, head: Head, member_id: String) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "member_remove", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let _ = self.directory.remove(caller.tenant_id(), &member_id).await;
        let _ = self.locker.put(sk.storage_key(), member_id.as_bytes(), Duration::from_secs(86_400)).await;
        Reply::status(Status::NO_CONTENT)
    }
}
