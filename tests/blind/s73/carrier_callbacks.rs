//! Rail-car and truck carrier status callbacks for outbound grain, plus the
//! shipper's "request car" call. Both write to the shipping crock, in two
//! disjoint keyspaces: `req/` for client requests, `evt/` for callbacks.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::StaffSso;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct CarrierStatus {
    pub callback_id: String,
    pub car_no: String,
    pub status: String,
}

#[derive(Deserialize)]
pub struct CarRequest {
    pub cars: u16,
    pub loading_date: String,
}

pub struct Shipping {
    pub crock: Crock,
    pub fleet: RailFleet,
}

pub async fn carrier_callback(p: Petition, Shared(s): Shared<Shipping>, Json(st): Json<CarrierStatus>) -> Ruling {
    if p.header("X-Carrier-Token") != Some(s.fleet.callback_token()) {
        return Ruling::with(StatusLine::UNAUTHORIZED);
    }
    let seen = format!("evt/{}", st.callback_id);
    if let Ok(true) = s.crock.exists(&seen).await {
        return Ruling::ok();
    }
    s.fleet.update(&st.car_no, &st.status).await;
    let _ = s.crock.put(&seen, st.status.clone().into_bytes()).await;
    Ruling::ok()
}

pub async fn request_cars(p: Petition, Shared(s): Shared<Shipping>, staff: StaffSso, Json(r): Json<CarRequest>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let scope = match scoped(&staff.org_id, &staff.subject, "car_request", k) {
        Ok(sc) => sc,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let slot = format!("req/{}", scope.storage_key());
    if let Ok(Some(prev)) = s.crock.get(&slot).await {
        return Ruling::ok().bytes(prev);
    }
    let ordered = s.fleet.order_cars(&staff.org_id, r.cars, &r.loading_date).await;
    let body = furrow::codec::to_vec(&ordered).unwrap_or_default();
    let _ = s.crock.put(&slot, body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn cancel_cars(p: Petition, Shared(s): Shared<Shipping>, staff: StaffSso) -> Ruling {
    let (Some(k), Some(order_id)) = (p.header("Idempotency-Key"), p.query("order")) else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    let scope = match scoped(&staff.org_id, &staff.subject, "car_cancel", k) {
        Ok(sc) => sc,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let slot = format!("req/{}", scope.storage_key());
    let cancelled = s.fleet.cancel(order_id).await;
    let _ = s.crock.put(&slot, furrow::codec::to_vec(&cancelled).unwrap_or_default()).await;
    let notice = format!("evt/{}", s.fleet.next_notice_id());
    let _ = s.crock.put(&notice, order_id.as_bytes().to_vec()).await;
    Ruling::ok()
}
