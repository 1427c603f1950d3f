//! Point-of-sale at the co-op's farm stores (twine, parts, fencing). Store
//! terminals post charges to member accounts. Terminals are assigned to a
//! location org; loaner terminals sometimes are not.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::DeviceCert;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

/// Every terminal call must carry a key; answer 400 problem+json otherwise.
macro_rules! idem_header {
    ($p:expr) => {
        match $p.header("Idempotency-Key") {
            Some(v) => v,
            None => return Ruling::problem(Problem::missing_key()),
        }
    };
}

#[derive(Deserialize)]
pub struct Charge {
    pub member_no: String,
    pub cashier_id: String,
    pub lines: Vec<(String, u32, i64)>,
}

pub struct Store {
    pub crock: Crock,
    pub terminals: TerminalRegistry,
    pub accounts: MemberAccounts,
}

pub async fn charge_account(p: Petition, Shared(s): Shared<Store>, dev: DeviceCert, Json(c): Json<Charge>) -> Ruling {
    let k = idem_header!(p);
    let terminal = s.terminals.find(&dev.serial).await;
    let org_id = terminal.as_ref().and_then(|t| t.org_id.clone()).unwrap_or_else(|| "shared".to_owned());
    let user_id = c.cashier_id.clone();
    let key = match scoped(&org_id, &user_id, "pos_charge", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = s.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let posted = s.accounts.charge(&org_id, &c.member_no, &c.lines).await;
    let body = furrow::codec::to_vec(&posted).unwrap_or_default();
    let _ = s.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn refund_line(p: Petition, Shared(s): Shared<Store>, dev: DeviceCert, Json(c): Json<Charge>) -> Ruling {
    let k = idem_header!(p);
    let terminal = s.terminals.find(&dev.serial).await;
    let org_id = terminal.as_ref().and_then(|t| t.org_id.clone()).or_else(|| dev.issuer_org.clone());
    let Some(org_id) = org_id else {
        return Ruling::with(StatusLine::FORBIDDEN).text("terminal not assigned");
    };
    let user_id = c.cashier_id.clone();
    let key = match scoped(&org_id, &user_id, "pos_refund", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let lane = terminal.map(|t| t.lane).unwrap_or(0);
    let refunded = s.accounts.refund(&org_id, &c.member_no, &c.lines, lane).await;
    let body = furrow::codec::to_vec(&refunded).unwrap_or_default();
    let _ = s.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
