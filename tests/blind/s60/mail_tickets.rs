use anyhow::{anyhow, Context as _, Result};
use gimbal::{Ctx, Json, Reply};
use idem_scope::{scoped, scoped_server, Problem};
use mail_parser::MessageParser;
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::desk::{Desk, NewTicket};

pub struct Tickets {
    dedup: Shelf,
    desk: Desk,
}

#[derive(Deserialize)]
pub struct TicketInput {
    subject: String,
    body: String,
}

impl Tickets {
    pub async fn create(&self, ctx: Ctx, Json(input): Json<TicketInput>) -> Reply {
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Some(caller) = ctx.caller() else {
            return Reply::status(401);
        };
        let key = match scoped(&caller.tenant_id, &caller.user_id, "tickets.create", k) {
            Ok(key) => key,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        match self.dedup.get(key.storage_key()).await {
            Ok(Some(prev)) => return Reply::replay(prev),
            Ok(None) => {}
            Err(_) => return Reply::status(503),
        }
        let new = NewTicket { subject: input.subject, body: input.body };
        let ticket = match self.desk.open(&caller.tenant_id, &caller.user_id, new).await {
            Ok(t) => t,
            Err(_) => return Reply::status(502),
        };
        let _ = self.dedup.put(key.storage_key(), &ticket.to_json()).await;
        Reply::created(ticket.to_json())
    }

    pub async fn ingest_mail(&self, tenant_id: &str, raw: &[u8]) -> Result<()> {
        let msg = MessageParser::default()
            .parse(raw)
            .ok_or_else(|| anyhow!("unparsable message"))?;
        let message_id = msg.message_id().context("inbound mail without Message-ID")?;
        let from = msg
            .from()
            .and_then(|list| list.first())
            .and_then(|addr| addr.address())
            .context("inbound mail without sender")?;
        let user_id = self.desk.requester_for(tenant_id, from).await?;

        let key = scoped(tenant_id, &user_id, "tickets.create", message_id)?;
        if self.dedup.get(key.storage_key()).await?.is_some() {
            return Ok(());
        }
        let new = NewTicket {
            subject: msg.subject().unwrap_or("(no subject)").to_owned(),
            body: msg.body_text(0).map(|b| b.into_owned()).unwrap_or_default(),
        };
        let ticket = self.desk.open(tenant_id, &user_id, new).await?;
        self.dedup.put(key.storage_key(), &ticket.to_json()).await?;
        Ok(())
    }

    pub async fn ingest_bounce(&self, tenant_id: &str, raw: &[u8]) -> Result<()> {
        let msg = MessageParser::default()
            .parse(raw)
            .ok_or_else(|| anyhow!("unparsable bounce"))?;
        let message_id = msg.message_id().context("bounce without Message-ID")?;
        let original = msg
            .in_reply_to()
            .as_text()
            .context("bounce without In-Reply-To")?;
        let ticket = self.desk.by_message(tenant_id, original).await?;

        let key = scoped_server(tenant_id, &ticket.user_id, "tickets.bounce", message_id)?;
        if self.dedup.get(key.storage_key()).await?.is_some() {
            return Ok(());
        }
        self.desk.mark_undeliverable(&ticket).await?;
        self.dedup.put(key.storage_key(), b"bounced").await?;
        Ok(())
    }
}
