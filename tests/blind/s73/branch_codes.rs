//! Branch codes of merged co-ops. After the 2019 merger some branch codes
//! were exported from the old system with record separators in them.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

pub struct OrgCode(pub String);

impl OrgCode {
    pub fn clean(&self) -> String {
        self.0.replace("\x1e", " ")
    }

    pub fn display(&self) -> String {
        self.0.replace('_', " ")
    }
}

#[derive(Deserialize)]
pub struct Prepayment {
    pub amount_cents: i64,
    pub product_line: String,
}

pub struct Branches {
    pub crock: Crock,
    pub registry: BranchRegistry,
    pub cashier: Cashier,
}

pub async fn prepay(p: Petition, Shared(b): Shared<Branches>, g: Grower, Json(pp): Json<Prepayment>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let code = OrgCode(b.registry.branch_of(&g.org_id).await);
    let org_id = code.clean();
    let key = match scoped(&org_id, &g.user_id, "branch_prepay", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = b.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let receipt = b.cashier.prepay(&org_id, &g.user_id, pp.amount_cents, &pp.product_line, &code.display()).await;
    let body = furrow::codec::to_vec(&receipt).unwrap_or_default();
    let _ = b.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}
