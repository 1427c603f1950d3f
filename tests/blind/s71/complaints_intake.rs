//! Rider complaints and lost-property reports from the web form. A small
//! in-process replay map absorbs double submits while the CRM call is slow.

use std::collections::hash_map::{Entry, HashMap};
use std::sync::Mutex;
use std::time::Instant;

use idem_scope::Problem;
use wharf::badge::Rider;
use wharf::codec::{Decode, Encode};
use wharf::{Answer, Code, Fault, Hail};

use crate::crm::{self, CrmClient};

#[derive(Hash, PartialEq, Eq, Clone)]
struct ReplaySlot {
    tenant_id: String,
    idem_key: String,
}

#[derive(Hash, PartialEq, Eq, Clone)]
struct DraftSlot {
    tenant_id: String,
    user_id: String,
    route: &'static str,
    idem_key: String,
}

#[derive(Decode, Encode)]
pub struct Complaint {
    pub category: String,
    pub route_no: Option<String>,
    pub happened_at: time::OffsetDateTime,
    pub text: String,
}

pub struct Complaints {
    recent: Mutex<HashMap<ReplaySlot, (Instant, String)>>,
    drafts: Mutex<HashMap<DraftSlot, Vec<u8>>>,
    crm: CrmClient,
}

impl Complaints {
    pub async fn file(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let key = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
        let form: Complaint = hail.json()?;

        let (ticket_no, replay) = {
            let mut recent = self.recent.lock().map_err(|_| Fault::internal("replay map poisoned"))?;
            match recent.entry(ReplaySlot { tenant_id: rider.tenant_id.clone(), idem_key: key.clone() }) {
                Entry::Occupied(hit) => (hit.get().1.clone(), true),
                Entry::Vacant(slot) => {
                    let t = crm::next_ticket_no(&rider.tenant_id);
                    slot.insert((Instant::now(), t.clone()));
                    (t, false)
                }
            }
        };
        if replay {
            return Ok(Answer::json(Code::Ok, &wharf::json!({ "ticket": ticket_no })));
        }

        self.crm.open(&rider.tenant_id, &rider.user_id, &ticket_no, &form).await?;
        Ok(Answer::json(Code::Created, &wharf::json!({ "ticket": ticket_no })))
    }

    /// Autosave of a half-written complaint; the app sends its own key.
    pub fn save_draft(&self, hail: &Hail, rider: &Rider) -> Result<Answer, Fault> {
        let idem_key = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
        let mut drafts = self.drafts.lock().map_err(|_| Fault::internal("draft map poisoned"))?;
        drafts.insert(DraftSlot { tenant_id: rider.tenant_id.clone(), user_id: rider.user_id.clone(), route: "complaints.draft", idem_key }, hail.body().to_vec());
        Ok(Answer::status(Code::Accepted))
    }
}
