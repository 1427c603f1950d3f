//! GitLab webhooks from the firmware repository trigger staged rollouts;
//! release managers can also trigger a rollout from the console API.

use garner::bin::Bin;
use idem_scope::{scoped, Namespace, ScopedKey};
use subtle::ConstantTimeEq;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub struct Rollouts {
    pub seen: Bin,
    pub hook_secret: String,
    pub org_id: String,
}

impl Rollouts {
    pub async fn console_rollout(&self, cx: Cx, who: Identity) -> Reply {
        let Some(key) = cx.header("Idempotency-Key") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/rollouts", key) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        if self.seen.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Code::OK);
        }
        let r = crate::rollout::stage(&who.org_id, cx.body_bytes()).await;
        let _ = self.seen.put(sk.storage_key(), r.as_bytes()).await;
        Reply::text(Code::ACCEPTED, r)
    }

    pub async fn gitlab_hook(&self, cx: Cx) -> Reply {
        let token = cx.header("X-Gitlab-Token").unwrap_or("");
        if token.as_bytes().ct_eq(self.hook_secret.as_bytes()).unwrap_u8() != 1 {
            return Reply::status(Code::UNAUTHORIZED);
        }
        let Some(event_uuid) = cx.header("X-Gitlab-Event-UUID") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Some(user_id) = cx.header("X-Gitlab-Instance") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&self.org_id, user_id, "/v1/rollouts", event_uuid) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        if self.seen.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Code::OK);
        }
        let r = crate::rollout::stage(&self.org_id, cx.body_bytes()).await;
        let _ = self.seen.put(sk.storage_key(), r.as_bytes()).await;
        Reply::status(Code::OK).header("X-Rollout-Event", event_uuid)
    }

    pub async fn gitlab_retry(&self, event_uuid: &str, instance: &str) {
        let sk = ScopedKey::builder()
            .tenant(&self.org_id)
            .principal(instance)
            .route("/v1/rollouts")
            .namespace(Namespace::Server)
            .key(event_uuid)
            .build();
        if let Ok(sk) = sk {
            let _ = self.seen.put(sk.storage_key(), b"retried").await;
        }
    }
}
