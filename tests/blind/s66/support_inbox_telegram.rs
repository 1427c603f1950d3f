use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use telegram_bot::{Api, CanReplySendMessage, MessageKind, Update, UpdateKind};

use crate::support::{ChatDirectory, Helpdesk, TicketDraft};

/// Support tickets arrive over the REST API and from the Telegram bot.
pub struct SupportInbox {
    stash: Arc<Stash>,
    desk: Arc<Helpdesk>,
    chats: Arc<ChatDirectory>,
    bot: Api,
}

impl SupportInbox {
    pub async fn open_via_api(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(&who.tenant_id, &who.user_id, "ticket_open", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(draft) = call.json::<TicketDraft>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        match self.desk.open(&who.tenant_id, &who.user_id, draft).await {
            Ok(t) => {
                let body = t.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::BAD_GATEWAY, &e.to_string()),
        }
    }

    pub async fn on_update(&self, update: Update) {
        let UpdateKind::Message(message) = update.kind else { return };
        let MessageKind::Text { ref data, .. } = message.kind else { return };
        let Some(link) = self.chats.linked_user(message.from.id).await else {
            let _ = self.bot.send(message.text_reply("Link your account in the app first.")).await;
            return;
        };
        let event_id = update.id.to_string();
        let Ok(slot) = scoped(&link.tenant_id, &link.user_id, "ticket_open", &event_id) else { return };
        if let Ok(Some(_)) = self.stash.get(slot.storage_key()).await {
            return;
        }
        let draft = TicketDraft { subject: data.lines().next().unwrap_or("Telegram").to_owned(), body: data.clone() };
        if let Ok(t) = self.desk.open(&link.tenant_id, &link.user_id, draft).await {
            let _ = self.stash.put(slot.storage_key(), &t.to_json().into_bytes()).await;
            let _ = self.bot.send(message.text_reply(format!("Ticket {} opened", t.number))).await;
        }
    }
}
