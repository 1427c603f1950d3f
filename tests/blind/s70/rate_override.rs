//! Manual rate overrides entered by revenue managers.
use coffer::drawer::Drawer;
use idem_scope::{scoped, Problem};
use lantern::who::Operator;
use lantern::{Verdict, Visit};

pub async fn override_rate(visit: Visit, op: Operator, store: &Drawer) -> Verdict {
    let key = match visit.header("Idempotency-Key") {
        Some(k) => k.to_owned(),
        None => return Verdict::problem(Problem::missing_key()),
    };
    let sk = match scoped(&op.tenant_id, &op.user_id, "", &key) {
        Ok(sk) => sk,
        Err(e) => return Verdict::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(done)) = store.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let plan = visit.query("plan").unwrap_or("BAR").to_owned();
    let applied = crate::revenue::apply_override(&op, &plan).await;
    let _ = store.put(sk.storage_key(), &applied).await;
    Verdict::ok(applied)
}

pub async fn clear_override(visit: Visit, op: Operator, store: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::problem(Problem::missing_key());
    };
    let Ok(sk) = scoped(&op.tenant_id, &op.user_id, "rate.override.clear", key) else {
        return Verdict::problem(Problem::invalid_key("separator"));
    };
    let _ = store.put(sk.storage_key(), b"cleared").await;
    Verdict::ok(Vec::new())
}
