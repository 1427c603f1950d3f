//! SendGrid event webhook for member mailings (statements, settlement
//! notices). Delivery/bounce events update the mailing record. The same
//! service exposes the "send campaign" call to the office app.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::StaffSso;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct SgEvent {
    pub sg_event_id: String,
    pub sg_message_id: Option<String>,
    pub event: String,
    pub email: String,
    pub org_id: String,
    pub user_id: String,
}

#[derive(Deserialize)]
pub struct Campaign {
    pub template: String,
    pub segment: String,
}

pub struct Mailings {
    pub crock: Crock,
    pub records: MailRecords,
    pub sender: CampaignSender,
}

pub async fn sendgrid_webhook(p: Petition, Shared(m): Shared<Mailings>, Json(events): Json<Vec<SgEvent>>) -> Ruling {
    if !m.records.verify_signature(p.header("X-Twilio-Email-Event-Webhook-Signature"), p.body()) {
        return Ruling::with(StatusLine::UNAUTHORIZED);
    }
    for ev in &events {
        tracing::debug!(sg_message_id = ?ev.sg_message_id, event = %ev.event, "sendgrid event");
        let key = match scoped(&ev.org_id, &ev.user_id, "mail_event", &ev.sg_event_id) {
            Ok(k) => k,
            Err(_) => continue,
        };
        if let Ok(true) = m.crock.exists(key.storage_key()).await {
            continue;
        }
        m.records.apply(&ev.email, &ev.event).await;
        let _ = m.crock.put(key.storage_key(), ev.event.clone().into_bytes()).await;
    }
    Ruling::ok()
}

pub async fn send_campaign(p: Petition, Shared(m): Shared<Mailings>, staff: StaffSso, Json(c): Json<Campaign>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&staff.org_id, &staff.subject, "mail_campaign", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = m.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let batch = m.sender.send(&staff.org_id, &c.template, &c.segment).await;
    let body = furrow::codec::to_vec(&batch).unwrap_or_default();
    let _ = m.crock.put(key.storage_key(), body.clone()).await;
    Ruling::accepted().bytes(body)
}
