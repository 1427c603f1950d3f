//! WhatsApp Cloud API webhook for guest chats, plus the agent reply endpoint.
use coffer::drawer::Drawer;
use idem_scope::{scoped, scoped_server};
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};
use whatsapp_cloud_api::models::webhook::{Message, WebhookPayload};

pub struct ChatBridge {
    pub replays: Drawer,
    pub seen_statuses: Drawer,
}

impl ChatBridge {
    pub async fn agent_reply(&self, visit: Visit, agent: Member) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key") else {
            return Verdict::status(Status::BadRequest);
        };
        let Ok(sk) = scoped(&agent.tenant_id, &agent.user_id, "chat.reply", key) else {
            return Verdict::status(Status::BadRequest);
        };
        let _ = self.replays.put(sk.storage_key(), b"sent").await;
        Verdict::status(Status::Accepted)
    }

    pub async fn webhook(&self, payload: WebhookPayload) -> Verdict {
        for entry in payload.entry {
            for change in entry.changes {
                let tenant = crate::directory::tenant_for_phone(&change.value.metadata.phone_number_id);
                for msg in change.value.messages.unwrap_or_default() {
                    let Message { id, from, .. } = &msg;
                    if let Ok(sk) = scoped(&tenant, from, "chat.inbound", id) {
                        if !self.replays.exists(sk.storage_key()).await.unwrap_or(true) {
                            crate::inbox::append(&tenant, from, &msg).await;
                            let _ = self.replays.put(sk.storage_key(), b"seen").await;
                        }
                    }
                }
                for status in change.value.statuses.unwrap_or_default() {
                    let _ = self.seen_statuses.put(&status.id, b"seen").await;
                    if let Ok(sk) = scoped_server(&tenant, &status.recipient_id, "chat.status", &status.id) {
                        let _ = self.replays.put(sk.storage_key(), b"status").await;
                    }
                }
            }
        }
        Verdict::status(Status::Ok)
    }
}
