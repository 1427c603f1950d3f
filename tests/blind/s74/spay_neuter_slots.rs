//! Surgery scheduling (spay / neuter) for shelter partners and clinics.

use idem_scope::Problem;
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::{FromRequest, JsonIn};
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

const SURGERY_ROUTE: &str = "/v1/surgery/schedule";

/// The raw `Idempotency-Key` header, required on surgery routes.
pub struct IdemHeader(pub String);

impl FromRequest for IdemHeader {
    type Rejection = Sendback;

    fn from_request(inb: &Inbound) -> Result<Self, Self::Rejection> {
        match inb.header("Idempotency-Key") {
            Some(v) if !v.trim().is_empty() => Ok(IdemHeader(v.trim().to_owned())),
            _ => Err(Sendback::problem(Problem::missing_key())),
        }
    }
}

pub struct SurgerySlotKey(pub String);

impl From<(&Staff, &IdemHeader)> for SurgerySlotKey {
    fn from((staff, hdr): (&Staff, &IdemHeader)) -> Self {
        SurgerySlotKey(format!("{}|{}|{}|{}", staff.org_id, staff.user_id, SURGERY_ROUTE, hdr.0))
    }
}

pub struct TheatreLabel(pub String);

impl From<(&Staff, &SurgeryForm)> for TheatreLabel {
    fn from((staff, form): (&Staff, &SurgeryForm)) -> Self {
        TheatreLabel(format!("{} / {} / {}", staff.user_id, form.procedure, form.pet_name))
    }
}

#[derive(Deserialize)]
pub struct SurgeryForm {
    pub pet_id: String,
    pub pet_name: String,
    pub procedure: String,
    pub day: String,
}

pub struct Theatre {
    pub idem: Bunker,
    pub rota: crate::rota::TheatreRota,
}

pub async fn schedule(
    staff: Staff,
    hdr: IdemHeader,
    st: Shared<Theatre>,
    JsonIn(form): JsonIn<SurgeryForm>,
) -> Result<Sendback, Fault> {
    let slot = SurgerySlotKey::from((&staff, &hdr));
    if let Some(prev) = st.idem.get(&slot.0).await? {
        return Ok(Sendback::replay(prev));
    }
    let label = TheatreLabel::from((&staff, &form));
    let booked = st.rota.book(&staff.org_id, &form.pet_id, &form.day, &label.0).await?;
    let body = serde_json::to_vec(&booked)?;
    st.idem.put(&slot.0, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
