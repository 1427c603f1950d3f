//! Key layout for the contract desk. Each desk endpoint implements
//! `KeySpace` to say how its replay records are named.

use std::fmt::Write as _;

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

pub trait KeySpace {
    const ROUTE: &'static str;

    fn ledger_slot(&self, org_id: &str, user_id: &str, client_key: &str) -> String {
        let mut s = String::with_capacity(80);
        let _ = write!(s, "{org_id}~{user_id}~{}~{client_key}", Self::ROUTE);
        s
    }
}

pub struct BasisFix;
impl KeySpace for BasisFix {
    const ROUTE: &'static str = "basis_fix";
}

pub struct Rollover;
impl KeySpace for Rollover {
    const ROUTE: &'static str = "hta_rollover";
}

#[derive(Deserialize)]
pub struct FixReq {
    pub contract_no: String,
    pub basis_cents: i32,
}

pub struct Desk {
    pub crock: Crock,
    pub pricing: PricingClient,
}

pub async fn fix_basis(p: Petition, Shared(desk): Shared<Desk>, g: Grower, Json(req): Json<FixReq>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let slot = BasisFix.ledger_slot(&g.org_id, &g.user_id, k);
    if let Ok(Some(done)) = desk.crock.get(&slot).await {
        return Ruling::ok().bytes(done);
    }
    let fixed = desk.pricing.fix_basis(&req.contract_no, req.basis_cents).await;
    let body = furrow::codec::to_vec(&fixed).unwrap_or_default();
    let _ = desk.crock.put(&slot, body.clone()).await;
    Ruling::ok().bytes(body)
}

pub async fn roll_hta(p: Petition, Shared(desk): Shared<Desk>, g: Grower, Json(req): Json<FixReq>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let scope = match scoped(&g.org_id, &g.user_id, Rollover::ROUTE, k) {
        Ok(s) => s,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(done)) = desk.crock.get(scope.storage_key()).await {
        return Ruling::ok().bytes(done);
    }
    let mut note = String::new();
    let _ = write!(note, "rolled {} for {}", req.contract_no, g.user_id);
    let rolled = desk.pricing.roll(&req.contract_no, &note).await;
    let body = furrow::codec::to_vec(&rolled).unwrap_or_default();
    let _ = desk.crock.put(scope.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
