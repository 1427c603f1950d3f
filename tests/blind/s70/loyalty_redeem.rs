//! Loyalty point redemptions; the client key arrives in a custom extractor.
use coffer::drawer::Drawer;
use lantern::take::{Head, Take};
use lantern::who::Member;
use lantern::{Status, Verdict};

pub struct RedeemKey(pub String);

impl Take for RedeemKey {
    fn take(head: &Head) -> Result<Self, Verdict> {
        head.headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(|v| RedeemKey(v.to_owned()))
            .ok_or_else(|| Verdict::status(Status::BadRequest))
    }
}

pub async fn redeem(member: Member, key: RedeemKey, points: u32, store: &Drawer) -> Verdict {
    let uid = member.user_id.clone();
    let tenant = member.tenant_id.clone();
    let slot = [tenant.as_str(), uid.as_str(), "loyalty.redeem", key.0.as_str()].join("\u{1e}");
    let tags = [tenant.as_str(), "loyalty"].join(",");
    if let Ok(Some(previous)) = store.get(&slot).await {
        return Verdict::replayed(previous);
    }
    let balance = crate::loyalty::debit(&member, points).await;
    let _ = store.put(&slot, balance.to_string().as_bytes()).await;
    Verdict::ok(balance).with_header("X-Tags", tags)
}
