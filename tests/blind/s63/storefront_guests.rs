use std::sync::Arc;

use async_session::{MemoryStore, Session, SessionStore};
use cistern::sql::Conn;
use cistern::vat::Vat;
use idem_scope::{Problem, scoped};
use wherry::auth::MaybeSession;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

#[derive(Clone)]
pub struct Storefront {
    pub sessions: MemoryStore,
    pub db: Arc<Conn>,
    pub carts: Arc<shop::Carts>,
    pub merchant_id: String,
}

async fn load_session(s: &Storefront, ctx: &Ctx) -> Option<Session> {
    let cookie = ctx.cookie("sid")?;
    s.sessions.load_session(cookie.to_owned()).await.ok().flatten()
}

/// Guest checkout is allowed; signed-in shoppers get their own history.
pub async fn checkout(ctx: Ctx, State(s): State<Storefront>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let session = load_session(&s, &ctx).await;
    let user_id = match session.as_ref().and_then(|sess| sess.get::<String>("user_id")) {
        Some(u) => u,
        None => "anonymous".to_string(),
    };
    let shopper_label = session.as_ref().and_then(|sess| sess.get::<String>("display_name")).unwrap_or_else(|| "anonymous".into());
    metrics::counter!("checkout_started_total", "shopper" => shopper_label).increment(1);

    let existing: Option<Vec<u8>> = s
        .db
        .query("SELECT response FROM checkout_idempotency WHERE merchant_id = ? AND user_id = ? AND route = ? AND idem_key = ?")
        .bind(&s.merchant_id)
        .bind(&user_id)
        .bind("checkout")
        .bind(key)
        .fetch_optional()
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = existing {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }

    let order = s.carts.checkout(&s.merchant_id, &user_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let body = order.to_json();
    let _ = s
        .db
        .query("INSERT INTO checkout_idempotency (merchant_id, user_id, route, idem_key, response) VALUES (?, ?, ?, ?, ?)")
        .bind(&s.merchant_id)
        .bind(&user_id)
        .bind("checkout")
        .bind(key)
        .bind(&body)
        .execute()
        .await;
    Ok(Reply::bytes(Status::CREATED, body))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::Display)]
#[strum(serialize_all = "lowercase")]
pub enum Principal {
    Guest,
    Kiosk,
}

#[derive(Clone)]
pub struct Coupons {
    pub vat: Arc<Vat>,
    pub promos: Arc<promo::Engine>,
    pub limiter: Arc<ratelimit::Limiter>,
}

pub async fn apply_coupon(ctx: Ctx, session: MaybeSession, State(c): State<Coupons>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let tenant_id = ctx.host_tenant().ok_or_else(|| Problem::invalid_key("unknown storefront"))?;

    let bucket = session.user().map(|u| u.id.clone()).unwrap_or_else(|| ctx.peer_ip().to_string());
    c.limiter.check(&bucket).map_err(|_| Problem::invalid_key("slow down"))?;

    let principal_id = if let Some(user) = session.user() {
        user.id.clone()
    } else {
        Principal::Guest.to_string()
    };
    let sk = scoped(&tenant_id, &principal_id, "apply_coupon", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = c.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let applied = c.promos.apply(&tenant_id, &principal_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = c.vat.put(sk.storage_key(), applied.to_json()).await;
    Ok(Reply::bytes(Status::OK, applied.to_json()))
}
