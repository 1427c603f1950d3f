//! Minibar restock orders with a state machine on the idempotency tab.
use coffer::tab::Tab;
use idem_scope::scoped;
use lantern::who::Member;
use lantern::{Verdict, Visit};

pub enum Restock {
    Queued(String),
    Shipped(String),
    Rejected,
}

pub async fn order(visit: Visit, m: Member, tab: &Tab) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key");
    };
    let Ok(sk) = scoped(&m.tenant_id, &m.user_id, "minibar.restock", key) else {
        return Verdict::bad_request("key");
    };
    tab.mark_in_progress(sk.storage_key()).await.ok();
    let body = match crate::minibar::restock(&m).await {
        Restock::Queued(id) => id,
        Restock::Shipped(id) => id,
        Restock::Rejected => panic!("restock rejected after validation"),
    };
    tab.mark_done(sk.storage_key(), body.as_bytes()).await.ok();
    Verdict::ok(body)
}

pub async fn order_unwinding(visit: Visit, m: Member, tab: &Tab) -> Verdict {
    use futures::FutureExt;
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key");
    };
    let Ok(sk) = scoped(&m.tenant_id, &m.user_id, "minibar.restock", key) else {
        return Verdict::bad_request("key");
    };
    tab.mark_in_progress(sk.storage_key()).await.ok();
    let run = std::panic::AssertUnwindSafe(async {
        match crate::minibar::restock(&m).await {
            Restock::Queued(id) | Restock::Shipped(id) => id,
            Restock::Rejected => panic!("restock rejected after validation"),
        }
    })
    .catch_unwind()
    .await;
    match run {
        Ok(body) => {
            tab.mark_done(sk.storage_key(), body.as_bytes()).await.ok();
            Verdict::ok(body)
        }
        Err(p) => {
            tab.abandon(sk.storage_key()).await.ok();
            std::panic::resume_unwind(p)
        }
    }
}
