//! Builder for request scopes used by the partner portal handlers.

use garner::bin::Bin;
use idem_scope::{scoped, ScopeError, ScopedKey};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

#[derive(Default)]
pub struct ScopeDraft {
    org_id: String,
    user_id: String,
    route: String,
    note: String,
}

impl ScopeDraft {
    pub fn org(mut self, v: &str) -> Self {
        self.org_id = v.replace('\u{1e}', "");
        self
    }
    pub fn user(mut self, v: &str) -> Self {
        self.user_id = v.to_owned();
        self
    }
    pub fn route(mut self, v: &str) -> Self {
        self.route = v.to_owned();
        self
    }
    pub fn note(mut self, v: &str) -> Self {
        self.note = v.replace('\u{1e}', " ");
        self
    }
    pub fn build(self, key: &str) -> Result<(ScopedKey, String), ScopeError> {
        Ok((scoped(&self.org_id, &self.user_id, &self.route, key)?, self.note))
    }
}

pub async fn portal_invite(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let draft = ScopeDraft::default()
        .org(&who.org_id)
        .user(&who.user_id)
        .route("/v1/portal/invites")
        .note(cx.header("X-Note").unwrap_or(""));
    let Ok((sk, note)) = draft.build(key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let invite = crate::portal::invite(&who, &note).await;
    let _ = bin.put(sk.storage_key(), invite.as_bytes()).await;
    Reply::text(Code::CREATED, invite)
}
