//! Replacement key cards for lost cards.
use coffer::drawer::Drawer;
use idem_scope::{scoped, Problem, ScopeError};
use lantern::who::Member;
use lantern::{Verdict, Visit};

pub async fn replace_card(visit: Visit, m: Member, replays: &Drawer) -> Verdict {
    let Some(raw_key) = visit.header("Idempotency-Key") else {
        return Verdict::problem(Problem::missing_key());
    };
    let clean = raw_key.replace('\u{1e}', "");
    let Ok(sk) = scoped(&m.tenant_id, &m.user_id, "key_card.replace", &clean) else {
        return Verdict::problem(Problem::invalid_key("key"));
    };
    let guest_name = visit.query("name").unwrap_or("").replace('\u{1e}', " ");
    if let Ok(Some(done)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let card = crate::locks::reissue(&m, &guest_name).await;
    let _ = replays.put(sk.storage_key(), &card).await;
    Verdict::ok(card)
}

pub async fn replace_card_strict(visit: Visit, m: Member, replays: &Drawer) -> Verdict {
    let Some(raw_key) = visit.header("Idempotency-Key") else {
        return Verdict::problem(Problem::missing_key());
    };
    let sk = match scoped(&m.tenant_id, &m.user_id, "key_card.replace", raw_key.trim()) {
        Ok(sk) => sk,
        Err(ScopeError::ContainsSeparator(c)) => return Verdict::problem(Problem::invalid_key(&format!("{c:?} contains a separator"))),
        Err(e) => return Verdict::problem(Problem::invalid_key(&e.to_string())),
    };
    let _ = replays.put(sk.storage_key(), b"pending").await;
    Verdict::accepted()
}
