//! Premium Wi-Fi vouchers.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

pub async fn buy(visit: Visit, member: Member, replays: &Drawer) -> Verdict {
    let Some(header) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let key = header.trim_end_matches(':');
    let Ok(sk) = scoped(&member.tenant_id, &member.user_id, "wifi.buy", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let ssid = visit.query("ssid").unwrap_or("Harbourline-Guest").trim_end_matches(':');
    if let Ok(Some(v)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(v);
    }
    let voucher = crate::wifi::issue(&member, ssid).await;
    let _ = replays.put(sk.storage_key(), voucher.as_bytes()).await;
    Verdict::ok(voucher)
}
