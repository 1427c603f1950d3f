//! Field-visit requests: a grower asks an agronomist to walk a field. The
//! router hands the matched route template to the handler.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct VisitReq {
    pub field_id: String,
    pub concern: String,
    pub window_days: u8,
}

pub struct Visits {
    pub crock: Crock,
    pub calendar: AgronomistCalendar,
    pub maps_base: String,
}

pub async fn request_visit(p: Petition, Shared(v): Shared<Visits>, g: Grower, Json(req): Json<VisitReq>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let route = p.route_name().trim_end_matches('/');
    let key = match scoped(&g.org_id, &g.user_id, route, k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = v.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let map_link = format!("{}/fields/{}", v.maps_base.trim_end_matches('/'), req.field_id);
    let concern = req.concern.replace(':', " -");
    let booked = match v.calendar.book(&g.org_id, &req.field_id, &concern, req.window_days, &map_link).await {
        Ok(b) => b,
        Err(e) => return Ruling::with(StatusLine::CONFLICT).text(&e.to_string()),
    };
    let body = furrow::codec::to_vec(&booked).unwrap_or_default();
    let _ = v.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}
