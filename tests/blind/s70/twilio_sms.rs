//! Guest SMS: outbound sends (client keyed) and inbound replies from Twilio.
use coffer::drawer::Drawer;
use idem_scope::{scoped, scoped_server};
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct InboundSms {
    pub message_sid: String,
    pub from: String,
    pub body: String,
    pub account_sid: String,
}

pub struct SmsDesk {
    pub replays: Drawer,
    pub property_for_number: crate::directory::Numbers,
}

impl SmsDesk {
    pub async fn send(&self, visit: Visit, member: Member) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key") else {
            return Verdict::status(Status::BadRequest);
        };
        let Ok(sk) = scoped(&member.tenant_id, &member.user_id, "sms.send", key) else {
            return Verdict::status(Status::BadRequest);
        };
        if let Ok(Some(sid)) = self.replays.get(sk.storage_key()).await {
            return Verdict::replayed(sid);
        }
        let sid = crate::twilio::send(&member, visit.query("to").unwrap_or_default()).await;
        let _ = self.replays.put(sk.storage_key(), sid.as_bytes()).await;
        Verdict::ok(sid)
    }

    pub async fn inbound(&self, sms: InboundSms) -> Verdict {
        let tenant = self.property_for_number.tenant(&sms.account_sid);
        let Ok(sk) = scoped(&tenant, &sms.from, "sms.inbound", &sms.message_sid) else {
            return Verdict::status(Status::BadRequest);
        };
        if self.replays.exists(sk.storage_key()).await.unwrap_or(false) {
            return Verdict::status(Status::Ok);
        }
        crate::inbox::append(&tenant, &sms.from, &sms.body).await;
        let _ = self.replays.put(sk.storage_key(), b"seen").await;
        Verdict::status(Status::Ok)
    }

    pub async fn status_callback(&self, sms: InboundSms) -> Verdict {
        let tenant = self.property_for_number.tenant(&sms.account_sid);
        let Ok(sk) = scoped_server(&tenant, "twilio", "sms.status", &sms.message_sid) else {
            return Verdict::status(Status::BadRequest);
        };
        let _ = self.replays.put(sk.storage_key(), b"delivered").await;
        tracing::info!(message_sid = %sms.message_sid, "status callback");
        Verdict::status(Status::Ok)
    }
}
