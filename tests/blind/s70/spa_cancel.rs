//! Spa appointment cancellations from the partner portal.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::PartnerToken;
use lantern::{Status, Verdict, Visit};

pub async fn cancel(visit: Visit, partner: PartnerToken, replays: &Drawer) -> Verdict {
    let key: Option<String> = visit.header("Idempotency-Key").map(|k| k.replace("\x00", ""));
    let Some(key) = key else {
        return Verdict::status(Status::BadRequest);
    };
    let Ok(sk) = scoped(&partner.tenant_id, &partner.client_id, "spa.cancel", &key) else {
        return Verdict::status(Status::BadRequest);
    };
    let reason: Option<String> = visit.query("reason").map(|r| r.replace("\x00", ""));
    let _ = replays.put(sk.storage_key(), reason.unwrap_or_default().as_bytes()).await;
    Verdict::status(Status::Accepted)
}
