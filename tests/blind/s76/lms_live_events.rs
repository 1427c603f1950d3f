//! Micro-credential badges. The LMS emits a live event when a learner
//! completes a badge-bearing module; the event stream is at-least-once, so the
//! issuer remembers what it already issued. Learners can also ask for a badge
//! to be re-issued from the portal.

use idem_scope::{scoped, scoped_server};
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::conveyor::Conveyor;
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::credentials::Issuer;

#[derive(Deserialize)]
pub struct LiveEnvelope {
    pub metadata: EventMeta,
    pub body: CompletionBody,
}

#[derive(Deserialize)]
pub struct EventMeta {
    pub event_guid: String,
    pub root_account_uuid: String,
    pub event_name: String,
}

#[derive(Deserialize)]
pub struct CompletionBody {
    pub user_id: String,
    pub module_id: String,
}

pub struct Badges {
    pub issued: Pouch,
    pub issuer: Issuer,
}

/// The event's identity as the LMS assigns it.
fn event_ref(env: &LiveEnvelope) -> String {
    env.metadata.event_guid.to_ascii_lowercase()
}

pub async fn consume(conveyor: &Conveyor, b: &Badges) -> anyhow::Result<()> {
    while let Some(tote) = conveyor.next("lms-live-events").await? {
        let env: LiveEnvelope = match serde_json::from_slice(tote.body()) {
            Ok(e) => e,
            Err(_) => {
                tote.dead_letter("unparseable").await?;
                continue;
            }
        };
        let tenant_id = &env.metadata.root_account_uuid;
        let sk = match env.metadata.event_name.as_str() {
            "module_completed" => scoped(tenant_id, &env.body.user_id, "lms.module_completed", &event_ref(&env))?,
            "module_reset" => scoped_server(tenant_id, &env.body.user_id, "lms.module_reset", &event_ref(&env))?,
            _ => {
                tote.ack().await?;
                continue;
            }
        };
        if b.issued.exists(sk.storage_key()).await? {
            tote.ack().await?;
            continue;
        }
        let badge = b.issuer.issue_or_revoke(tenant_id, &env.body.user_id, &env.body.module_id, &env.metadata.event_name).await?;
        b.issued.put(sk.storage_key(), &badge.to_bytes()).await?;
        tote.ack().await?;
    }
    Ok(())
}

pub async fn reissue(ask: &Ask, b: &Badges) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let module = ask.param("module").ok_or(Hitch::bad_request("module"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/badges/reissue", key)?;
    if let Some(done) = b.issued.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let badge = b.issuer.reissue(&card.tenant_id, &card.user_id, module).await?;
    let body = badge.to_bytes();
    b.issued.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

