//! Room upgrade offers accepted from the pre-arrival e-mail.
use coffer::drawer::Drawer;
use lantern::take::FormBody;
use lantern::who::Member;
use lantern::Verdict;
use serde::Deserialize;

pub trait DedupeTag {
    fn dedupe_tag(&self) -> String;
}

#[derive(Deserialize)]
pub struct UpgradeForm {
    pub reservation: String,
    pub room_type: String,
    pub price_cents: u64,
}

impl DedupeTag for UpgradeForm {
    fn dedupe_tag(&self) -> String {
        let joined = format!("{}|{}|{}", self.reservation, self.room_type, self.price_cents);
        format!("{:x}", a5hash::a5hash(joined.as_bytes(), 0))
    }
}

pub struct GuestRef<'a>(pub &'a str);

impl DedupeTag for GuestRef<'_> {
    fn dedupe_tag(&self) -> String {
        format!("{:x}", a5hash::a5hash(self.0.as_bytes(), 1))
    }
}

pub async fn accept(member: Member, FormBody(form): FormBody<UpgradeForm>, dedup: &Drawer) -> Verdict {
    if let Ok(Some(done)) = dedup.get(&form.dedupe_tag()).await {
        return Verdict::replayed(done);
    }
    let result = crate::upgrades::apply(&member, &form.reservation, &form.room_type).await;
    let _ = dedup.put(&GuestRef(&member.user_id).dedupe_tag(), &result).await;
    Verdict::ok(result)
}
