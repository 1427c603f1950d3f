//! Staff rota: shift swaps requested from the staff app.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Rota {
    pub idem: Bunker,
    pub shifts: crate::rota::ShiftBook,
}

#[derive(Deserialize)]
pub struct SwapIn {
    pub shift_id: String,
    pub with_user: String,
    pub reason: Option<String>,
}

pub async fn request_swap(
    inb: Inbound,
    staff: Staff,
    st: Shared<Rota>,
    JsonIn(req): JsonIn<SwapIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;

    // SSO subjects arrive as "/okta|00u1ab" from one of the identity providers.
    let user_id = staff.user_id.trim_matches(|c| c == '/' || c == '|');
    let with_user = req.with_user.trim();

    let key = scoped(&staff.org_id, user_id, "/v1/rota/swaps", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let swap = st.shifts.request_swap(&staff.org_id, &req.shift_id, &staff.user_id, with_user, req.reason.as_deref()).await?;
    let body = serde_json::to_vec(&swap)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
