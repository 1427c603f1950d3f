//! Home-charger installation quotes. The slot layout is injected so the
//! legacy mobile app and the partner portal can share one handler.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub struct QuoteSlots {
    pub layout: Box<dyn Fn(&str) -> String + Send + Sync>,
    pub bin: Bin,
}

impl QuoteSlots {
    pub fn legacy(who: &Identity, bin: Bin) -> Self {
        let (org_id, user_id, route) = (who.org_id.clone(), who.user_id.clone(), "/v1/install-quotes");
        QuoteSlots {
            layout: Box::new(move |k| format!("{}#{}#{}#{}", org_id, user_id, route, k)),
            bin,
        }
    }

    pub fn portal(who: &Identity, bin: Bin) -> Self {
        let (org_id, user_id) = (who.org_id.clone(), who.user_id.clone());
        QuoteSlots {
            layout: Box::new(move |k| {
                scoped(&org_id, &user_id, "/v1/install-quotes", k)
                    .map(|sk| sk.storage_key().to_owned())
                    .unwrap_or_default()
            }),
            bin,
        }
    }
}

pub async fn request_quote(cx: Cx, slots: &QuoteSlots) -> Reply {
    let Some(k) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let slot = (slots.layout)(k);
    if slot.is_empty() {
        return Reply::status(Code::BAD_REQUEST);
    }
    if let Ok(Some(q)) = slots.bin.get(&slot).await {
        return Reply::bytes(Code::OK, q);
    }
    let quote = crate::install::price(cx.body_bytes()).await;
    let note = format!("quote {} for key {}", quote.id, k);
    let _ = slots.bin.put(&slot, note.as_bytes()).await;
    Reply::json(Code::CREATED, serde_json::json!({ "quote": quote.id }))
}
