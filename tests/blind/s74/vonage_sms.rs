//! Two-way SMS with owners through Vonage: outbound appointment texts from
//! the desk, inbound replies ("C" to confirm) from the Vonage webhook.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::{FormIn, JsonIn};
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Texting {
    /// Replay records for desk sends and inbound deliveries.
    pub replay: Bunker,
    pub vonage: crate::sms::VonageApi,
    pub diary: crate::diary::Diary,
    pub numbers: crate::sms::NumberBook,
}

#[derive(Deserialize)]
pub struct OutboundText {
    pub to: String,
    pub appointment_id: String,
    pub body: String,
}

/// Vonage inbound message webhook (form-encoded, legacy SMS API).
#[derive(Deserialize)]
pub struct InboundSms {
    pub msisdn: String,
    pub to: String,
    #[serde(rename = "messageId")]
    pub message_id: String,
    pub text: String,
}

pub async fn send_text(
    inb: Inbound,
    staff: Staff,
    st: Shared<Texting>,
    JsonIn(req): JsonIn<OutboundText>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/sms/send", k)?;
    if let Some(prev) = st.replay.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let to = req.to.replace(['-', ' ', '(', ')'], "");
    let sent = st.vonage.send(&to, &req.body, &req.appointment_id).await?;
    let body = serde_json::to_vec(&sent)?;
    st.replay.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Accepted, body))
}

pub async fn inbound_sms(st: Shared<Texting>, FormIn(msg): FormIn<InboundSms>) -> Result<Sendback, Fault> {
    // Vonage retries until it gets a 200; remember what we already handled.
    let org_id = st.numbers.org_for_number(&msg.to).await?;
    let key = scoped(&org_id, &msg.to, "/hooks/vonage/inbound", &msg.message_id)?;
    if st.replay.get(key.storage_key()).await?.is_some() {
        return Ok(Sendback::status(Code::Ok));
    }
    let phone = msg.msisdn.trim_start_matches('+');
    if msg.text.trim().eq_ignore_ascii_case("C") {
        st.diary.confirm_by_phone(&org_id, phone).await?;
    }
    st.replay.put(key.storage_key(), b"handled".to_vec()).await?;
    Ok(Sendback::status(Code::Ok))
}
