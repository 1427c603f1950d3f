//! Group room blocks for weddings and conferences.
use coffer::pairs::PairDrawer;
use lantern::take::Head;
use lantern::who::Member;
use lantern::{Status, Verdict};
use serde::Serialize;

#[derive(Serialize, Hash, PartialEq, Eq)]
pub struct BlockKey<'a> {
    pub org: &'a str,
    pub key: &'a str,
}

#[derive(Serialize, Hash, PartialEq, Eq)]
pub struct FullBlockKey<'a> {
    pub org: &'a str,
    pub user_id: &'a str,
    pub route: &'a str,
    pub key: &'a str,
}

pub async fn hold_block(head: Head, who: Member, table: &PairDrawer) -> Verdict {
    let Some(key) = head.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    if let Some(prior) = table.get(&BlockKey { org: &who.org_id, key }).await {
        return Verdict::replayed(prior);
    }
    let block = crate::groups::hold(&who, head.query("rooms")).await;
    table.put(&FullBlockKey { org: &who.org_id, user_id: &who.user_id, route: "group.hold", key }, &block).await;
    Verdict::ok(block)
}
