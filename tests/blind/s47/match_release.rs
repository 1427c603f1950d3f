use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Fingerprint, ScopedKey};

pub trait SyncStore {
    fn try_claim(&self, key: &ScopedKey, fp: &Fingerprint, lease: Duration) -> Result<bool, String>;
    fn mark_completed(&self, key: &ScopedKey, response: &str) -> Result<(), String>;
    fn abandon(&self, key: &ScopedKey) -> Result<(), String>;
}

pub struct Ctx<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub client_key: &'a str,
    pub body: &'a [u8],
}

fn charge_card(body: &[u8]) -> Result<String, String> {
    if body.is_empty() {
        return Err("empty".into());
    }
    Ok("{\"charged\":true}".into())
}

fn classify(body: &[u8]) -> u8 {
    body.first().copied().unwrap_or(0)
}

pub fn pay(store: &dyn SyncStore, ctx: &Ctx) -> Result<String, String> {
    let sk = scoped(ctx.tenant_id, ctx.user_id, "payments.pay", ctx.client_key).map_err(|e| e.to_string())?;
    let fp = Fingerprint::of("payments.pay", ctx.body);
    if !store.try_claim(&sk, &fp, Duration::from_secs(300))? {
        return Err("in progress".into());
    }
    let resp = match charge_card(ctx.body) {
        Ok(r) => r,
        Err(e) => {
            let _ = store.abandon(&sk);
            return Err(e);
        }
    };
    store.mark_completed(&sk, &resp)?;
    Ok(resp)
}

pub fn pay_unwinding(store: &dyn SyncStore, ctx: &Ctx) -> Result<String, String> {
    let sk = scoped(ctx.tenant_id, ctx.user_id, "payments.pay", ctx.client_key).map_err(|e| e.to_string())?;
    let fp = Fingerprint::of("payments.pay", ctx.body);
    if !store.try_claim(&sk, &fp, Duration::from_secs(300))? {
        return Err("in progress".into());
    }
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| charge_card(ctx.body).expect("validated upstream")));
    let resp = match outcome {
        Ok(r) => r,
        Err(payload) => {
            let _ = store.abandon(&sk);
            panic::resume_unwind(payload);
        }
    };
    store.mark_completed(&sk, &resp)?;
    Ok(resp)
}

pub fn pay_with_guard(store: &'static dyn SyncStore, ctx: &Ctx) -> Result<String, String> {
    let sk = scoped(ctx.tenant_id, ctx.user_id, "payments.pay", ctx.client_key).map_err(|e| e.to_string())?;
    let fp = Fingerprint::of("payments.pay", ctx.body);
    if !store.try_claim(&sk, &fp, Duration::from_secs(300))? {
        return Err("in progress".into());
    }
    let release_key = sk.clone();
    let held = ClaimGuard::new(move || {
        let _ = store.abandon(&release_key);
    });
    let resp = charge_card(ctx.body)?;
    store.mark_completed(&sk, &resp)?;
    held.complete();
    Ok(resp)
}

pub fn pay_classified(store: &dyn SyncStore, ctx: &Ctx) -> Result<String, String> {
    let sk = scoped(ctx.tenant_id, ctx.user_id, "payments.classified", ctx.client_key).map_err(|e| e.to_string())?;
    let fp = Fingerprint::of("payments.classified", ctx.body);
    if !store.try_claim(&sk, &fp, Duration::from_secs(300))? {
        return Err("in progress".into());
    }
    let resp = match classify(ctx.body) {
        0 => charge_card(ctx.body).unwrap_or_else(|e| e),
        1..=9 => "{\"queued\":true}".to_string(),
        _ => unreachable!("classifier yields at most 9"),
    };
    store.mark_completed(&sk, &resp)?;
    Ok(resp)
}
