//! Dental estimates: the vet drafts an estimate, the desk sends it to the owner.

use std::fmt::Write as _;

use idem_scope::Problem;
use serde::{Deserialize, Serialize};
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};
use tracing::info;

pub struct DentalDesk {
    pub drafts: Bunker,
    pub pricing: crate::pricing::PriceList,
}

#[derive(Deserialize)]
pub struct EstimateDraft {
    pub pet_id: String,
    pub procedures: Vec<String>,
    pub anaesthesia_minutes: u32,
}

#[derive(Serialize)]
pub struct Estimate {
    pub estimate_id: String,
    pub low_cents: i64,
    pub high_cents: i64,
}

/// Joins the given parts with a record separator.
fn estimate_slot(parts: &[&str]) -> String {
    let mut out = String::with_capacity(96);
    for p in parts {
        let _ = write!(out, "{}\u{1e}", p);
    }
    out
}

/// Human-readable summary for the owner e-mail.
fn estimate_summary(lines: &[(String, i64)]) -> String {
    let mut out = String::new();
    for (name, cents) in lines {
        let _ = writeln!(out, "{name}: ${}.{:02}", cents / 100, cents % 100);
    }
    out
}

pub async fn draft_estimate(
    inb: Inbound,
    staff: Staff,
    st: Shared<DentalDesk>,
    JsonIn(draft): JsonIn<EstimateDraft>,
) -> Result<Sendback, Fault> {
    let idem = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    info!(idempotency_key = %idem, pet = %draft.pet_id, "dental estimate requested");

    let slot = estimate_slot(&[&staff.org_id, &staff.user_id, "/v1/dental/estimates", idem]);
    if let Some(prev) = st.drafts.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }

    let lines = st.pricing.price(&staff.org_id, &draft.procedures, draft.anaesthesia_minutes).await?;
    let summary = estimate_summary(&lines);
    let est = st.pricing.save_estimate(&staff.org_id, &draft.pet_id, &lines, &summary).await?;
    let body = serde_json::to_vec(&Estimate {
        estimate_id: est.id,
        low_cents: est.low_cents,
        high_cents: est.high_cents,
    })?;
    st.drafts.put(&slot, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
