//! Lobby kiosk check-in: owners tap a loyalty card or check in without one.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Kiosk;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

mod visitor {
    pub const ANONYMOUS: &str = "anonymous-visitor";
}

pub struct Lobby {
    pub idem: Bunker,
    pub queue: crate::lobby::WaitQueue,
    pub cards: crate::loyalty::CardIndex,
}

#[derive(Deserialize)]
pub struct CheckinIn {
    pub card_uid: Option<String>,
    pub appointment_id: Option<String>,
    pub pet_name: String,
}

pub async fn check_in(
    inb: Inbound,
    kiosk: Kiosk,
    st: Shared<Lobby>,
    JsonIn(req): JsonIn<CheckinIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;

    let card = match req.card_uid.as_deref() {
        Some(uid) => st.cards.find(&kiosk.org_id, uid).await?,
        None => None,
    };
    let visitor: &str = match card.as_ref().and_then(|c| c.client_id.as_deref()) {
        Some(id) => id,
        None => visitor::ANONYMOUS,
    };
    let display = card.as_ref().map(|c| c.display_name.as_str()).unwrap_or("Walk-in guest");

    let key = scoped(&kiosk.org_id, visitor, "/v1/kiosk/checkins", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let ticket = st.queue.join(&kiosk.org_id, req.appointment_id.as_deref(), &req.pet_name, display).await?;
    let body = serde_json::to_vec(&ticket)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
