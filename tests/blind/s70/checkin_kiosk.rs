//! Self check-in kiosks in the lobby post the scanned passport form here.
use coffer::drawer::Drawer;
use idem_scope::{scoped, Fingerprint};
use lantern::who::Kiosk;
use lantern::{Status, Verdict, Visit};

const SEED: u64 = 0x5eed_cafe;

pub async fn check_in(visit: Visit, kiosk: Kiosk, idem_store: &Drawer) -> Verdict {
    let raw = match visit.body_bytes().await {
        Ok(b) => b,
        Err(_) => return Verdict::status(Status::BadRequest),
    };
    let Ok(sk) = scoped(&kiosk.tenant_id, &kiosk.client_id, "kiosk.checkin", &format!("{:016x}", mx3::v3::hash(&raw, SEED))) else {
        return Verdict::status(Status::BadRequest);
    };
    let fp = Fingerprint::of("kiosk.checkin", &raw);
    if let Ok(Some(done)) = idem_store.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let room = crate::frontdesk::check_in(&kiosk, &raw).await;
    let _ = idem_store.put_fingerprint(sk.storage_key(), fp.as_bytes()).await;
    let _ = idem_store.put(sk.storage_key(), room.as_bytes()).await;
    let device_bucket = mx3::v3::hash(kiosk.device_id.as_bytes(), SEED) % 8;
    crate::metrics::kiosk_bucket(device_bucket);
    Verdict::ok(room)
}
