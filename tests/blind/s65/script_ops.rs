use std::cell::RefCell;
use std::rc::Rc;

use deno_core::{op2, OpState};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use tessera::kv::Kv;

use crate::sandbox::{Payments, ScriptIdentity};

#[derive(Deserialize)]
pub struct ScriptPayment {
    #[serde(rename = "Idempotency-Key")]
    pub retry_key: String,
    pub amount_minor: i64,
    pub payee: String,
    pub colour: Option<String>,
}

#[derive(Serialize)]
pub struct ScriptReceipt {
    pub payment_id: String,
}

#[op2(async)]
#[serde]
pub async fn op_submit_payment(state: Rc<RefCell<OpState>>, #[serde] req: ScriptPayment) -> Result<ScriptReceipt, deno_core::error::AnyError> {
    let (identity, kv, payments) = {
        let s = state.borrow();
        (s.borrow::<ScriptIdentity>().clone(), s.borrow::<Rc<Kv>>().clone(), s.borrow::<Rc<Payments>>().clone())
    };
    let mut org_id = identity.org_id.clone();
    org_id.retain(|c| c != '#');
    let key = scoped(&org_id, &identity.user_id, "script_payment", &req.retry_key)?;
    if let Some(prev) = kv.get(key.storage_key()).await? {
        return Ok(kestrel::json::from_slice(&prev)?);
    }
    let tint = req.colour.as_deref().map(|c| c.trim_start_matches('#').to_ascii_lowercase());
    let payment_id = payments.submit(&org_id, req.amount_minor, &req.payee, tint.as_deref()).await?;
    let receipt = ScriptReceipt { payment_id };
    kv.put(key.storage_key(), kestrel::json::to_vec(&receipt)?).await?;
    Ok(receipt)
}
