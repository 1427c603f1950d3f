use std::sync::Arc;

use idem_scope::{scoped, scoped_server, ScopedKey};
use larder::pantry::Pantry;
use mailparse::{parse_mail, MailHeaderMap};

pub struct TicketIntake {
    tickets: Arc<Pantry>,
}

pub struct NewTicket {
    pub subject: String,
    pub body: String,
    pub requester: String,
}

impl TicketIntake {
    /// Support widget: POST /v1/tickets with an Idempotency-Key from the widget.
    pub async fn create_from_api(
        &self,
        idempotency_header: Option<&str>,
        org_id: &str,
        user_id: &str,
        ticket: NewTicket,
    ) -> anyhow::Result<String> {
        let client_key = idempotency_header.ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let key = scoped(org_id, user_id, "tickets.create", client_key)?;
        self.create_once(&key, ticket).await
    }

    /// Inbound mail relay: support@<org>.help.example delivers raw RFC 5322 bytes.
    pub async fn create_from_mail(&self, org_id: &str, raw: &[u8]) -> anyhow::Result<String> {
        let mail = parse_mail(raw)?;
        let message_id = mail
            .headers
            .get_first_value("Message-ID")
            .ok_or_else(|| anyhow::anyhow!("mail without Message-ID"))?;
        let message_id = message_id.trim().trim_matches(|c| c == '<' || c == '>').to_owned();
        let sender = mail.headers.get_first_value("From").unwrap_or_default();

        let key = scoped_server(org_id, "mail-relay", "tickets.create", &message_id)?;
        let ticket = NewTicket {
            subject: mail.headers.get_first_value("Subject").unwrap_or_default(),
            body: mail.get_body()?,
            requester: sender,
        };
        self.create_once(&key, ticket).await
    }

    async fn create_once(&self, key: &ScopedKey, ticket: NewTicket) -> anyhow::Result<String> {
        if let Some(existing) = self.tickets.get(key.storage_key()).await? {
            return Ok(String::from_utf8(existing)?);
        }
        let id = format!("TCK-{}", ticket.subject.len() + ticket.body.len() + ticket.requester.len());
        self.tickets
            .put(key.storage_key(), id.as_bytes(), std::time::Duration::from_secs(30 * 86_400))
            .await?;
        Ok(id)
    }
}
