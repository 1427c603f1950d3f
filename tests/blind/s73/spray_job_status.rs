//! Custom-application (spraying) job status for the grower portal. The
//! portal polls with the same Idempotency-Key it used when it booked the
//! job; the booking side stored the result under that key.

use std::sync::Arc;

use bushel::crock::Crock;
use ripress::context::{HttpRequest, HttpResponse};

pub struct SprayDesk {
    pub crock: Crock,
}

pub async fn booking_status(desk: Arc<SprayDesk>, req: HttpRequest, res: HttpResponse) -> HttpResponse {
    let Some(session) = portal_session(&req) else {
        return res.status(401).text("sign in");
    };
    let Some(key) = req.headers.get("idempotency-key") else {
        return res.status(400).text("Idempotency-Key required");
    };
    let res = res.set_header("X-Org", &session.org_id);
    match desk.crock.get(key).await {
        Ok(Some(stored)) => res.status(200).bytes(stored),
        Ok(None) => res.status(404).text(format!("no booking for key {key}")),
        Err(_) => res.status(503).text("store unavailable"),
    }
}

pub async fn job_progress(desk: Arc<SprayDesk>, req: HttpRequest, res: HttpResponse) -> HttpResponse {
    let Some(session) = portal_session(&req) else {
        return res.status(401).text("sign in");
    };
    let Ok(job_id) = req.get_params("job_id") else {
        return res.status(400).text("job id");
    };
    let progress_key = format!("progress/{}/{}", session.org_id, job_id);
    match desk.crock.get(&progress_key).await {
        Ok(Some(p)) => res.status(200).bytes(p),
        _ => res.status(404).text("unknown job"),
    }
}
