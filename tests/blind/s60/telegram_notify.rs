use std::collections::{HashMap, HashSet};

use frankenstein::{
    AsyncApi, AsyncTelegramApi, GetUpdatesParams, Message, SendMessageParams, UpdateContent,
};
use http::HeaderMap;
use tokio::sync::RwLock;
use tracing::{info, warn};

#[derive(Debug, thiserror::Error)]
pub enum NotifyError {
    #[error("Idempotency-Key header missing")]
    MissingKey,
    #[error("telegram: {0}")]
    Telegram(#[from] frankenstein::Error),
}

pub struct Notifier {
    api: AsyncApi,
    seen_updates: RwLock<HashSet<u32>>,
    notify_replays: RwLock<HashMap<(String, String, String), i32>>,
}

impl Notifier {
    pub fn new(token: &str) -> Self {
        Self {
            api: AsyncApi::new(token),
            seen_updates: RwLock::new(HashSet::new()),
            notify_replays: RwLock::new(HashMap::new()),
        }
    }

    /// Called by the internal HTTP API: `POST /notify/{chat_id}`.
    pub async fn notify(
        &self,
        headers: &HeaderMap,
        tenant_id: &str,
        user_id: &str,
        chat_id: i64,
        text: &str,
    ) -> Result<i32, NotifyError> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or(NotifyError::MissingKey)?
            .to_owned();
        let slot = (tenant_id.to_owned(), user_id.to_owned(), key);
        if let Some(message_id) = self.notify_replays.read().await.get(&slot) {
            return Ok(*message_id);
        }
        let params = SendMessageParams::builder().chat_id(chat_id).text(text).build();
        let sent = self.api.send_message(&params).await?;
        self.notify_replays.write().await.insert(slot, sent.result.message_id);
        Ok(sent.result.message_id)
    }

    pub async fn poll(&self, offset: &mut i64) -> Result<(), NotifyError> {
        let params = GetUpdatesParams::builder().offset(*offset).timeout(25u32).build();
        let updates = self.api.get_updates(&params).await?;
        for update in updates.result {
            *offset = i64::from(update.update_id) + 1;
            if !self.seen_updates.write().await.insert(update.update_id) {
                continue;
            }
            if let UpdateContent::Message(msg) = update.content {
                self.greet(&msg).await?;
            }
        }
        Ok(())
    }

    async fn greet(&self, msg: &Message) -> Result<(), NotifyError> {
        let user_id = msg.from.as_ref().map(|u| u.id).unwrap_or_default();
        info!(user_id, chat = msg.chat.id, "start command");
        if msg.text.as_deref() != Some("/start") {
            warn!(user_id, "ignoring non-command message");
            return Ok(());
        }
        let text = format!("Hi {user_id}, you will receive payment notifications here.");
        let params = SendMessageParams::builder().chat_id(msg.chat.id).text(text).build();
        self.api.send_message(&params).await?;
        Ok(())
    }
}
