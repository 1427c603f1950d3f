//! Mobile room key issuance; keys are cut once per client request.
use std::fmt::Write;

use coffer::drawer::Drawer;
use lantern::who::Member;
use lantern::{Verdict, Visit};

#[derive(Default)]
pub struct SlotText {
    buf: String,
}

impl SlotText {
    pub fn tenant(mut self, t: &str) -> Self {
        write!(self.buf, "{t}").unwrap();
        self
    }
    pub fn principal(mut self, p: &str) -> Self {
        write!(self.buf, "/{p}").unwrap();
        self
    }
    pub fn route(mut self, r: &str) -> Self {
        write!(self.buf, "/{r}").unwrap();
        self
    }
    pub fn client(mut self, k: &str) -> Self {
        write!(self.buf, "/{k}").unwrap();
        self
    }
    pub fn finish(self) -> String {
        self.buf
    }
}

pub async fn issue(visit: Visit, keys: &Drawer) -> Verdict {
    let member = visit.extension::<Member>().cloned().expect("auth layer runs first");
    let Some(client_key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("missing Idempotency-Key");
    };
    let slot = SlotText::default()
        .tenant(&member.tenant_id)
        .principal(&member.user_id)
        .route("room_key.issue")
        .client(client_key)
        .finish();
    if let Ok(Some(card)) = keys.get(&slot).await {
        return Verdict::replayed(card);
    }
    let card = crate::locks::encode_card(&member, visit.query("room").unwrap_or_default());
    let _ = keys.put(&slot, &card).await;
    let mut label = String::new();
    write!(label, "card for {} ({})", member.user_id, client_key).ok();
    Verdict::ok(card).with_header("X-Card-Label", label)
}
