use std::sync::Arc;

use async_trait::async_trait;
use disintegrate::{query, EventListener, PersistedEvent, StreamQuery};
use idem_scope::Namespace;
use larder::keys::KeyParts;
use larder::pantry::Pantry;

use crate::domain::{BillingEvent, Mailer};

/// Sends a receipt once per capture, and once per explicit "resend" request.
pub struct ReceiptMailer {
    sent: Arc<Pantry>,
    mailer: Mailer,
}

impl ReceiptMailer {
    pub async fn resend(&self, tenant_id: &str, user_id: &str, idem_key_header: &http::HeaderValue, invoice: &str) -> anyhow::Result<()> {
        let client_key = idem_key_header.to_str()?;
        let slot = KeyParts { ns: Namespace::Client, tenant: tenant_id, principal: user_id, route: "receipts.resend", key: client_key }.render()?;
        if self.sent.exists(&slot).await? {
            return Ok(());
        }
        self.mailer.send_receipt(tenant_id, invoice).await?;
        self.sent.put(&slot, invoice.as_bytes(), std::time::Duration::from_secs(86_400)).await?;
        Ok(())
    }
}

#[async_trait]
impl EventListener<i64, BillingEvent> for ReceiptMailer {
    type Error = anyhow::Error;

    fn id(&self) -> &'static str {
        "receipt_mailer"
    }

    fn query(&self) -> StreamQuery<i64, BillingEvent> {
        query!(BillingEvent)
    }

    async fn handle(&self, event: PersistedEvent<i64, BillingEvent>) -> Result<(), Self::Error> {
        let event_id = event.id().to_string();
        let BillingEvent::PaymentCaptured { tenant_id, user_id, invoice } = event.into_inner() else {
            return Ok(());
        };
        let slot = KeyParts { ns: Namespace::Server, tenant: &tenant_id, principal: &user_id, route: "receipts.send", key: &event_id }.render()?;
        if self.sent.exists(&slot).await? {
            return Ok(());
        }
        self.mailer.send_receipt(&tenant_id, &invoice).await?;
        self.sent.put(&slot, invoice.as_bytes(), std::time::Duration::from_secs(90 * 86_400)).await?;
        Ok(())
    }
}
