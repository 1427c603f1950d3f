//! Year-end patronage payouts. Finance staff trigger the cash portion of a
//! member's allocation; the request goes to the bank through the payout
//! rail. The logbook tracks one record per request.

use bushel::logbook::Logbook;
use furrow::glean::Json;
use furrow::warrant::StaffSso;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct PayoutReq {
    pub member_no: String,
    pub fiscal_year: u16,
    pub cash_pct: u8,
}

pub struct Finance {
    pub logbook: Logbook,
    pub rail: PayoutRail,
}

pub async fn pay_cash_portion(p: Petition, Shared(f): Shared<Finance>, staff: StaffSso, Json(req): Json<PayoutReq>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let Ok(key) = scoped(&staff.org_id, &staff.subject, "patronage_cash", k) else {
        return Ruling::problem(Problem::invalid_key("separator"));
    };
    if let Err(e) = f.logbook.mark_in_progress(key.storage_key()).await {
        return Ruling::with(StatusLine::CONFLICT).text(&e.to_string());
    }

    let allocation = match f.rail.allocation(&req.member_no, req.fiscal_year).await {
        Ok(a) => a,
        Err(e) => return Ruling::with(StatusLine::BAD_GATEWAY).text(&e.to_string()),
    };
    let paid = f.rail.pay(&allocation, req.cash_pct).await;
    let body = furrow::codec::to_vec(&paid).unwrap_or_default();
    let _ = f.logbook.mark_done(key.storage_key(), &body).await;
    Ruling::ok().bytes(body)
}

pub async fn retire_equity(p: Petition, Shared(f): Shared<Finance>, staff: StaffSso, Json(req): Json<PayoutReq>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let Ok(key) = scoped(&staff.org_id, &staff.subject, "equity_retire", k) else {
        return Ruling::problem(Problem::invalid_key("separator"));
    };
    if let Err(e) = f.logbook.mark_in_progress(key.storage_key()).await {
        return Ruling::with(StatusLine::CONFLICT).text(&e.to_string());
    }
    let allocation = match f.rail.allocation(&req.member_no, req.fiscal_year).await {
        Ok(a) => a,
        Err(e) => {
            let _ = f.logbook.abandon(key.storage_key()).await;
            return Ruling::with(StatusLine::BAD_GATEWAY).text(&e.to_string());
        }
    };
    let retired = f.rail.retire(&allocation).await;
    let body = furrow::codec::to_vec(&retired).unwrap_or_default();
    let _ = f.logbook.mark_done(key.storage_key(), &body).await;
    Ruling::ok().bytes(body)
}
