//! Spa booking helpers shared by the web and kiosk front ends (no callers in this crate).
use coffer::drawer::Drawer;

pub fn spa_slot(tenant_id: &str, user_id: &str, idempotency_key: &str) -> String {
    let mut s = tenant_id.to_string();
    s += "/";
    s += user_id;
    s += "/spa.book/";
    s += idempotency_key;
    s
}

pub fn therapist_slot(tenant_id: &str, therapist: &str, day: &str) -> String {
    let mut s = String::from(tenant_id);
    s += ":";
    s += therapist;
    s += ":";
    s += day;
    s
}

pub async fn remember_booking(
    kv: &Drawer,
    tenant_id: &str,
    user_id: &str,
    idempotency_key: &str,
    confirmation: &[u8],
) -> anyhow::Result<()> {
    kv.put(&spa_slot(tenant_id, user_id, idempotency_key), confirmation).await?;
    Ok(())
}
