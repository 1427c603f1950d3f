//! Portal bill payment: one card or bank debit against an open statement.

use aquifer::weir::{Gate, Weir};
use idem_scope::{scoped, Decision, Fingerprint, Problem, Record};
use penstock::badge::Customer;
use penstock::extract::{FromRequestParts, Parts, RawBody, State};
use penstock::{Code, Fault, Outflow};
use rusty_money::{iso, Money};
use serde::Deserialize;

pub struct IdemConfig {
    pub header: &'static str,
    pub max_len: usize,
}

impl Default for IdemConfig {
    fn default() -> Self {
        IdemConfig { header: "Idempotency-Key", max_len: 255 }
    }
}

/// The client's key, parsed leniently (the IVR sends bare UUIDs).
pub struct PortalKey(idem_scope::IdempotencyKey);

impl<S: Send + Sync> FromRequestParts<S> for PortalKey {
    type Rejection = Fault;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Fault> {
        let cfg = IdemConfig::default();
        let raw = parts
            .headers
            .get(cfg.header)
            .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
        if raw.len() > cfg.max_len {
            return Err(Fault::problem(Problem::invalid_key("longer than 255 bytes")));
        }
        idem_scope::IdempotencyKey::parse_lenient(raw.as_bytes())
            .map(PortalKey)
            .map_err(|e| Fault::problem(Problem::invalid_key(&e.to_string())))
    }
}

#[derive(Deserialize)]
pub struct PayBill {
    pub statement_no: String,
    pub amount_minor: i64,
    pub method_token: String,
}

pub struct BillPayState {
    pub weir: Weir,
    pub processor: crate::processor::Client,
}

pub async fn pay_bill(
    State(st): State<BillPayState>,
    who: Customer,
    key: PortalKey,
    RawBody(raw): RawBody,
) -> Result<Outflow, Fault> {
    let body: PayBill = serde_json::from_slice(&raw)?;
    let scoped_key = scoped(&who.tenant_id, &who.user_id, "bill-pay", key.0.as_str())?;
    let fp = Fingerprint::of("bill-pay", &raw);
    let existing = st.weir.peek(scoped_key.storage_key()).await?;
    match idem_scope::decide(existing.as_ref(), &fp) {
        Decision::Replay => return Ok(Outflow::from_record(existing)),
        Decision::InProgress => return Err(Fault::problem(Problem::in_progress(key.0.as_str()))),
        Decision::Mismatch => return Err(Fault::problem(Problem::mismatch(key.0.as_str()))),
        Decision::Proceed => {}
    }
    let gate: Gate = st.weir.begin(scoped_key.storage_key(), Record::in_progress(fp)).await?;
    let amount = Money::from_minor(body.amount_minor, iso::USD);
    let receipt = st
        .processor
        .debit(&body.statement_no, &body.method_token, &amount)
        .await
        .map_err(|e| Fault::upstream(format!("debit for key {} failed: {e}", key.0.as_str())))?;
    let out = Outflow::json(Code::CREATED, &receipt);
    gate.complete(&out).await?;
    Ok(out)
}
