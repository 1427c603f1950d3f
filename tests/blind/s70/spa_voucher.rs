//! Spa voucher purchases from the web shop.
use coffer::drawer::Drawer;
use lantern::take::JsonBody;
use lantern::who::Member;
use lantern::Verdict;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, savefile_derive::Savefile)]
pub struct VoucherOrder {
    pub treatment: String,
    pub recipient_email: String,
    pub value_cents: u64,
}

fn body_tag(order: &VoucherOrder) -> Result<String, savefile::SavefileError> {
    let bytes = savefile::save_to_mem(0, order)?;
    Ok(format!("{:x}", mx3::v3::hash(&bytes, 11)))
}

pub async fn buy(member: Member, JsonBody(order): JsonBody<VoucherOrder>, replays: &Drawer) -> Verdict {
    let Ok(tag) = body_tag(&order) else {
        return Verdict::bad_request("order");
    };
    let code = crate::vouchers::issue(&member, &order).await;
    let fingerprint = format!("{:x}", mx3::v3::hash(order.recipient_email.as_bytes(), 3));
    crate::vouchers::remember_fingerprint(&member.tenant_id, &fingerprint);
    let _ = replays.put(&format!("{}/{}/voucher.buy/{}", member.tenant_id, member.user_id, tag), code.as_bytes()).await;
    let _ = replays.put(&format!("voucher-code/{}", code), tag.as_bytes()).await;
    Verdict::ok(code)
}
