use std::sync::Arc;

use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use mail_send::mail_builder::MessageBuilder;
use thimble::auth::Caller;
use thimble::mail::InboundMail;
use thimble::{Exchange, Reply, Status};

/// Support tickets arrive by e-mail and by the web form.
pub struct TicketIntake {
    pub vault: Arc<Vault>,
    pub tickets: crate::tickets::Tickets,
}

impl TicketIntake {
    pub async fn web_form(&self, ex: Exchange, caller: Caller, text: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "ticket.open", raw)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        if !self.vault.set_nx(sk.storage_key(), text.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
            return Ok(Reply::status(Status::Ok));
        }
        self.tickets.open(&caller.tenant_id, &text).await;
        Ok(Reply::status(Status::Created))
    }

    pub async fn on_mail(&self, mail: InboundMail) -> anyhow::Result<()> {
        let tenant = self.tickets.tenant_for_mailbox(&mail.to).await?;
        let message_id = mail.header("Message-ID").unwrap_or_default().trim_matches(|c| c == '<' || c == '>').to_string();
        anyhow::ensure!(!message_id.is_empty(), "mail without Message-ID");
        let sk = scoped(&tenant, &mail.from, "ticket.open", &message_id)?;
        if !self.vault.set_nx(sk.storage_key(), mail.body.as_bytes()).await? {
            return Ok(());
        }
        self.tickets.open(&tenant, &mail.body).await;
        let ack = MessageBuilder::new()
            .from("support@example.net")
            .to(mail.from.as_str())
            .in_reply_to(message_id.as_str())
            .subject("We received your request")
            .text_body("A support engineer will get back to you.");
        self.tickets.send(ack).await?;
        Ok(())
    }
}
