//! A small text builder for reservation slots (charger booking).

use garner::bin::Bin;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

#[derive(Default)]
pub struct SlotText {
    buf: String,
}

impl SlotText {
    pub fn new() -> Self {
        Self { buf: String::with_capacity(96) }
    }

    pub fn part(mut self, p: &str) -> Self {
        if !self.buf.is_empty() {
            self.buf.push('\u{1f}');
        }
        self.buf.push_str(p);
        self
    }

    pub fn client(mut self, k: &str) -> Self {
        self.buf.push('\u{1f}');
        self.buf.push_str(k);
        self
    }

    pub fn finish(self) -> String {
        self.buf
    }
}

pub async fn book_slot(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let key = match cx.header("Idempotency-Key") {
        Some(k) => k,
        None => return Reply::status(Code::BAD_REQUEST),
    };
    let slot = SlotText::new()
        .part(&who.org_id)
        .part(&who.user_id)
        .part("/v1/bookings")
        .client(key)
        .finish();
    if let Ok(Some(prev)) = bin.get(&slot).await {
        return Reply::bytes(Code::OK, prev);
    }
    let station = cx.query("station").unwrap_or_default();
    let booking = crate::booking::reserve(&who, &station).await;
    let label = SlotText::new().part(&station).part(&booking.id).finish();
    let _ = bin.put(&slot, booking.id.as_bytes()).await;
    Reply::text(Code::CREATED, label)
}
