use std::sync::Arc;

use bytes::Bytes;
use dashmap::DashMap;
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
struct MailInfo {
    #[serde(rename = "messageId")]
    message_id: String,
    source: String,
}

#[derive(Deserialize)]
struct BounceNotification {
    #[serde(rename = "notificationId")]
    message_id: Option<String>,
    mail: Option<MailInfo>,
    #[serde(rename = "bounceType")]
    bounce_type: String,
    recipients: Vec<String>,
}

/// Outcomes of mail sends requested through the API, plus bounce
/// notifications that were already processed.
#[derive(Clone)]
pub struct MailOutcomes {
    handled: Arc<DashMap<String, Bytes>>,
    suppressions: crate::mail::Suppressions,
    mailer: crate::mail::Mailer,
}

impl MailOutcomes {
    pub async fn send(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, msg: crate::mail::Outgoing) -> anyhow::Result<Bytes> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key header is required"))?;
        let sk = scoped(&caller.account_id, &caller.user_id, "mail.send", key)?;
        if let Some(prev) = self.handled.get(sk.storage_key()) {
            return Ok(prev.clone());
        }
        let queued = self.mailer.send(&caller.account_id, &msg).await?;
        let out = Bytes::from(serde_json::to_vec(&queued)?);
        self.handled.insert(sk.storage_key().to_owned(), out.clone());
        Ok(out)
    }

    pub async fn on_bounce(&self, raw: &[u8]) -> anyhow::Result<()> {
        let n: BounceNotification = serde_json::from_slice(raw)?;
        let notif_id = n
            .message_id
            .as_deref()
            .or_else(|| n.mail.as_ref().map(|m| m.message_id.as_str()))
            .ok_or_else(|| anyhow::anyhow!("bounce without id"))?;
        if self.handled.insert(notif_id.to_owned(), Bytes::new()).is_some() {
            return Ok(());
        }
        if n.bounce_type == "Permanent" {
            for rcpt in &n.recipients {
                let address = rcpt.trim_matches(|c| c == '<' || c == '>');
                self.suppressions.add(address, n.mail.as_ref().map(|m| m.source.as_str())).await?;
            }
        }
        Ok(())
    }
}
