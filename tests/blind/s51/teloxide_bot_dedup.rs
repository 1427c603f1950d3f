//! Telegram ordering bot. Telegram may redeliver updates after a webhook
//! timeout; we drop the ones we have already seen.
use std::collections::HashSet;
use std::sync::Arc;

use teloxide::prelude::*;
use teloxide::types::{Update, UpdateKind};
use tokio::sync::RwLock;

pub struct BotState {
    seen_updates: RwLock<HashSet<u32>>,
    pay_api: String,
}

pub async fn on_update(state: Arc<BotState>, bot: Bot, update: Update) -> ResponseResult<()> {
    if !state.seen_updates.write().await.insert(update.id.0) {
        log::debug!("duplicate update {}", update.id.0);
        return Ok(());
    }
    if let UpdateKind::Message(msg) = update.kind {
        if msg.text() == Some("/pay") {
            let payer = msg.from.as_ref().map(|u| u.id.0).unwrap_or_default();
            log::info!("pay requested by {payer}");
            let idempotency_key = format!("tg-{}-{}", msg.chat.id.0, msg.id.0);
            let req = http::Request::builder()
                .method("POST")
                .uri(format!("{}/v1/payments", state.pay_api))
                .header("Idempotency-Key", idempotency_key.as_str())
                .body(Vec::new())
                .expect("static request parts");
            forward(req).await;
            bot.send_message(msg.chat.id, "payment queued").await?;
        }
    }
    Ok(())
}

async fn forward(_req: http::Request<Vec<u8>>) {}
