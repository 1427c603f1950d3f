//! Support intake: tickets come from the app (with an Idempotency-Key) and
//! from the support mailbox (IMAP IDLE via async-imap).

use futures::StreamExt;
use garner::bin::Bin;
use idem_scope::{scoped, scoped_server};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub struct Intake {
    pub tickets: Bin,
    pub support_org: String,
}

impl Intake {
    pub async fn from_app(&self, cx: Cx, who: Identity) -> Reply {
        let Some(key) = cx.header("Idempotency-Key") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/tickets", key) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        if self.tickets.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Code::OK);
        }
        let t = crate::helpdesk::open(&who.org_id, cx.body_bytes()).await;
        let _ = self.tickets.put(sk.storage_key(), t.as_bytes()).await;
        Reply::text(Code::CREATED, t)
    }

    pub async fn poll_mailbox(&self, session: &mut async_imap::Session<crate::net::TlsStream>) -> async_imap::error::Result<()> {
        session.select("INBOX").await?;
        let mut fetches = session.fetch("1:*", "(UID ENVELOPE BODY.PEEK[])").await?;
        while let Some(fetch) = fetches.next().await {
            let fetch = fetch?;
            let Some(env) = fetch.envelope() else { continue };
            let message_id = env.message_id.as_ref().map(|m| String::from_utf8_lossy(m).into_owned()).unwrap_or_default();
            let from = env.from.as_ref().and_then(|f| f.first()).and_then(|a| a.mailbox.as_ref()).map(|m| String::from_utf8_lossy(m).into_owned());
            let Some(user_id) = from else { continue };
            let Ok(sk) = scoped(&self.support_org, &user_id, "/v1/tickets", &message_id) else {
                continue;
            };
            if self.tickets.exists(sk.storage_key()).await.unwrap_or(false) {
                continue;
            }
            let t = crate::helpdesk::open(&self.support_org, fetch.body().unwrap_or_default()).await;
            let _ = self.tickets.put(sk.storage_key(), t.as_bytes()).await;
            tracing::info!(%message_id, ticket = %t, "ticket from mail");
        }
        Ok(())
    }

    pub async fn resend_ack(&self, user_id: &str, message_id: &str) {
        if let Ok(sk) = scoped_server(&self.support_org, user_id, "/v1/tickets/ack", message_id) {
            let _ = self.tickets.put(sk.storage_key(), b"acked").await;
        }
    }
}
