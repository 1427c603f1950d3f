use std::time::Duration;

use idem_scope::{scoped, Problem};
use imap::types::Fetch;
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct NewTicket {
    pub subject: String,
    pub body: String,
}

pub struct Tickets {
    pub dedup: Locker,
    pub mail_seen: Locker,
    pub desk: crate::desk::Helpdesk,
}

impl Tickets {
    pub async fn create_http(&self, caller: Caller, head: Head, Json(t): Json<NewTicket>) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "ticket_create", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if !self.dedup.set_nx(sk.storage_key(), b"1", Duration::from_secs(86_400)).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        let _ = self.desk.open(caller.tenant_id(), caller.user_id(), &t.subject, &t.body).await;
        Reply::status(Status::CREATED)
    }

    pub async fn create_from_mail(&self, tenant_id: &str, user_id: &str, fetch: &Fetch) -> eyre::Result<()> {
        let uid = fetch.uid.unwrap_or_default();
        let seen = format!("{}/uid/{}", tenant_id, uid);
        if !self.mail_seen.set_nx(&seen, b"1", Duration::from_secs(30 * 86_400)).await? {
            return Ok(());
        }
        let raw = fetch.body().unwrap_or_default();
        let parsed = crate::mail::parse(raw)?;
        let message_id = parsed.message_id.clone();
        let sk = scoped(tenant_id, user_id, "ticket_create", &message_id)?;
        if self.dedup.set_nx(sk.storage_key(), b"1", Duration::from_secs(86_400)).await? {
            self.desk.open(tenant_id, user_id, &parsed.subject, &parsed.text).await?;
        }
        Ok(())
    }
}
