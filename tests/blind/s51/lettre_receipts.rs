//! Receipt mailer. POST /v1/receipts/send is retried by clients with an
//! Idempotency-Key; bounces are matched back by Message-ID.
use http::{HeaderMap, HeaderName};
use lettre::message::{header::ContentType, Mailbox, Message};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

pub struct Ctx {
    pub workspace_id: Option<String>,
    pub user_id: String,
}

pub struct Mailer {
    smtp: AsyncSmtpTransport<Tokio1Executor>,
    sent: foyer::Cache<String, String>,
}

static IDEM: HeaderName = HeaderName::from_static("idempotency-key");

impl Mailer {
    pub async fn send_receipt(
        &self,
        ctx: &Ctx,
        headers: &HeaderMap,
        to: Mailbox,
        html: String,
    ) -> anyhow::Result<String> {
        let client_key = headers
            .get(&IDEM)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let workspace_id = ctx.workspace_id.clone().unwrap_or_default();
        let key = idem_scope::scoped(&workspace_id, &ctx.user_id, "receipts.send", client_key)?;
        if let Some(hit) = self.sent.get(key.storage_key()) {
            return Ok(hit.value().clone());
        }

        let message_id = format!("<{}@mail.example.com>", uuid::Uuid::new_v4());
        let email = Message::builder()
            .message_id(Some(message_id.clone()))
            .from("billing@example.com".parse()?)
            .to(to)
            .subject("Your receipt")
            .header(ContentType::TEXT_HTML)
            .body(html)?;
        self.smtp.send(email).await?;

        self.sent.insert(key.storage_key().to_owned(), message_id.clone());
        let bounce_key = idem_scope::scoped(&workspace_id, &ctx.user_id, "receipts.bounce", &message_id)?;
        self.sent.insert(bounce_key.storage_key().to_owned(), client_key.to_owned());
        Ok(message_id)
    }
}
