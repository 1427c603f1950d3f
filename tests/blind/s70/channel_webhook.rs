//! Channel-manager webhooks (reservation deliveries) and the manual re-sync endpoint.
use coffer::drawer::Drawer;
use idem_scope::{scoped, scoped_server};
use lantern::who::{Member, PartnerToken};
use lantern::{Status, Verdict, Visit};

const DELIVERY_HEADER: &str = "X-Channel-Delivery";

pub async fn resync(visit: Visit, member: Member, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let Ok(sk) = scoped(&member.tenant_id, &member.user_id, "channel.resync", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let _ = replays.put(sk.storage_key(), b"queued").await;
    Verdict::status(Status::Accepted)
}

pub async fn delivery(visit: Visit, partner: PartnerToken, replays: &Drawer) -> Verdict {
    let Some(delivery_id) = visit.header(DELIVERY_HEADER) else {
        return Verdict::status(Status::BadRequest);
    };
    let Ok(sk) = scoped(&partner.tenant_id, &partner.client_id, "channel.delivery", delivery_id) else {
        return Verdict::status(Status::BadRequest);
    };
    if replays.exists(sk.storage_key()).await.unwrap_or(false) {
        return Verdict::status(Status::Ok);
    }
    crate::channel::ingest(&partner, visit.body_bytes().await.unwrap_or_default()).await;
    let _ = replays.put(sk.storage_key(), b"ingested").await;
    Verdict::status(Status::Ok).with_header("X-Channel-Delivery-Ack", delivery_id)
}

pub async fn delivery_v2(visit: Visit, partner: PartnerToken, replays: &Drawer) -> Verdict {
    let Some(delivery_id) = visit.header(DELIVERY_HEADER) else {
        return Verdict::status(Status::BadRequest);
    };
    let Ok(sk) = scoped_server(&partner.tenant_id, &partner.client_id, "channel.delivery", delivery_id) else {
        return Verdict::status(Status::BadRequest);
    };
    let _ = replays.put(sk.storage_key(), b"ingested").await;
    Verdict::status(Status::Ok)
}
