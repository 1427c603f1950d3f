//! Membership renewals: members renew from the portal, and the autopay job
//! renews memberships that expire in the next three days.

use enclosure::extract::Shared;
use enclosure::pass::Member;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::{scoped, scoped_server};
use lagoon::tank::Tank;
use uuid::Uuid;

pub struct Renewals {
    pub replays: Tank,
    pub reminders: Tank,
    pub billing: crate::billing::Billing,
    pub members: crate::members::Directory,
    pub mailer: crate::mail::Mailer,
}

/// `POST /v1/membership/renew`
pub async fn renew(visit: Visit, Shared(r): Shared<Renewals>, member: Member) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let slot = scoped(&member.org_id, &member.user_id, "membership.renew", key).map_err(Fault::bad_request)?;
    if let Some(prev) = r.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let invoice = r.billing.renew(&member.org_id, &member.user_id).await?;
    let body = serde_json::to_vec(&invoice).map_err(Fault::internal)?;
    r.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::OK, body))
}

/// 02:00 daily: autopay renewals.
pub async fn autopay(r: &Renewals, org_id: &str) -> Result<(), Fault> {
    for m in r.members.expiring_within_days(org_id, 3).await? {
        if !m.autopay {
            let reminder = scoped_server(&m.org_id, &m.user_id, "membership.remind", &m.expires_on).map_err(Fault::internal)?;
            if !r.reminders.exists(reminder.storage_key()).await? {
                r.mailer.renewal_reminder(&m).await?;
                r.reminders.put(reminder.storage_key(), b"sent").await?;
            }
            continue;
        }
        let slot = scoped(&m.org_id, &m.user_id, "membership.renew", &Uuid::new_v4().to_string()).map_err(Fault::internal)?;
        let invoice = r.billing.renew(&m.org_id, &m.user_id).await?;
        r.replays.put(slot.storage_key(), &serde_json::to_vec(&invoice).map_err(Fault::internal)?).await?;
    }
    Ok(())
}
