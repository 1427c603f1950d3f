use std::sync::Arc;

use idem_scope::{scoped, scoped_server, Problem};
use quarry::slots::SlotBook;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct ClinicBooking {
    clinic_id: String,
    slot_start: String,
    patient_ref: String,
}

#[derive(Deserialize)]
pub struct CalendarCallback {
    callback_id: Option<String>,
    tenant_id: String,
    clinic_id: String,
    slot_start: String,
}

pub struct Appointments {
    slots: Arc<SlotBook>,
    calendar: calendar::Client,
}

impl Appointments {
    pub async fn book(&self, ctx: &Ctx, caller: &Caller, Json(req): Json<ClinicBooking>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let team_id = caller.team_id.clone().unwrap_or_else(|| caller.org_id.clone());
        let sk = match scoped(&team_id, &caller.user_id, "appointments.book", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let pending = match self.slots.begin(sk.storage_key()).await {
            Ok(Some(p)) => p,
            Ok(None) => return Reply::problem(Problem::in_progress(key)),
            Err(e) => return Reply::text(Status::SERVICE_UNAVAILABLE, e.to_string()),
        };
        let appt = match self.calendar.book(&req.clinic_id, &req.slot_start, &req.patient_ref).await {
            Ok(a) => a,
            Err(e) => return Reply::text(Status::CONFLICT, e.to_string()),
        };
        pending.complete(appt.to_bytes()).await;
        Reply::bytes(Status::CREATED, appt.to_bytes())
    }

    pub async fn calendar_callback(&self, Json(cb): Json<CalendarCallback>) -> Reply {
        let Some(sk) = cb.callback_id.as_deref().and_then(|id| scoped_server(&cb.tenant_id, "calendar-sync", "appointments.sync", id).ok()) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Ok(Some(pending)) = self.slots.begin(sk.storage_key()).await else {
            return Reply::status(Status::OK);
        };
        self.calendar.refresh(&cb.clinic_id, &cb.slot_start).await;
        pending.complete(Vec::new()).await;
        Reply::status(Status::OK)
    }
}
