//! Release PINs for import containers: the consignee's haulier gets a PIN
//! that the gate accepts once customs and the line have released the box.

use ballast::hold::Hold;
use hawser::extract::Shared;
use hawser::header::{HeaderName, HeaderValue};
use hawser::pass::Haulier;
use hawser::typed::{Header, TypedHeader};
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;

static IDEMPOTENCY_KEY_NAME: HeaderName = HeaderName::from_static("idempotency-key");

/// Typed `Idempotency-Key` header.
pub struct IdemKey(pub String);

impl Header for IdemKey {
    fn name() -> &'static HeaderName {
        &IDEMPOTENCY_KEY_NAME
    }

    fn decode<'i, I: Iterator<Item = &'i HeaderValue>>(values: &mut I) -> Result<Self, hawser::typed::Error> {
        let v = values.next().ok_or_else(hawser::typed::Error::invalid)?;
        let s = v.to_str().map_err(|_| hawser::typed::Error::invalid())?;
        Ok(IdemKey(s.trim_matches('"').to_owned()))
    }
}

pub struct ReleaseDesk {
    pub replies: Hold,
    pub pins: pin_core::Issuer,
}

pub async fn issue_pin(
    desk: Shared<ReleaseDesk>,
    h: Haulier,
    call: Call,
    TypedHeader(IdemKey(raw)): TypedHeader<IdemKey>,
) -> Result<Answer, Snag> {
    let container_no = call.param("container").ok_or_else(|| Snag::bad_request("container"))?;
    let k = raw.replace(':', "_");

    let key = scoped(&h.account_id, &h.client_id, call.route_template(), &k).map_err(Snag::bad_request)?;
    if let Some(prev) = desk.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let pin = desk.pins.issue(container_no, &h.account_id).await?;
    let gate_screen = pin.display.replace(':', " ");
    let answer = Answer::json(Status::CREATED, &serde_json::json!({ "pin": pin.code, "screen": gate_screen }));
    desk.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
