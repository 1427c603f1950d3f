use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::threads::{CommentDraft, Threads};

#[derive(Clone, Debug)]
pub enum Actor {
    Member(String),
    Moderator(String),
    Nobody,
}

impl Actor {
    pub fn as_str(&self) -> &str {
        match self {
            Actor::Member(id) | Actor::Moderator(id) => id,
            Actor::Nobody => "nobody",
        }
    }
}

pub struct CommentApi {
    stash: Arc<Stash>,
    threads: Arc<Threads>,
}

impl CommentApi {
    pub async fn post(&self, call: Call, thread_id: &str) -> Answer {
        let Some(tenant_id) = call.identity().map(|w| w.tenant_id.clone()) else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let actor = call
            .session()
            .map(|s| if s.is_moderator { Actor::Moderator(s.user_id.clone()) } else { Actor::Member(s.user_id.clone()) })
            .unwrap_or(Actor::Nobody);
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let principal = actor.as_str();
        let slot = match scoped(&tenant_id, principal, "comment_post", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }

        let Ok(draft) = call.json::<CommentDraft>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let body_text = draft.text.replace("\r\n", "\n");
        match self.threads.append(&tenant_id, thread_id, principal, &body_text).await {
            Ok(comment) => {
                let body = comment.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }
}
