use std::sync::Arc;

use cistern::records::Records;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use tokio::sync::Mutex;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct Basket {
    pub lines: Vec<BasketLine>,
}

#[derive(Deserialize)]
pub struct BasketLine {
    pub sku: String,
    pub price_minor: i64,
    pub promo: bool,
}

#[derive(Clone)]
pub struct Loyalty {
    pub records: Arc<Records>,
    pub points: Arc<loyalty::PointsBook>,
    pub recompute: Arc<Mutex<()>>,
}

/// Awards points for a basket. Lines after the first promo line earn nothing.
pub async fn award_points(ctx: Ctx, caller: Caller, State(l): State<Loyalty>, Json(basket): Json<Basket>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "award_points", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if basket.lines.is_empty() {
        return Err(Problem::invalid_key("empty basket"));
    }

    l.records.mark_in_progress(sk.storage_key()).await.map_err(|_| Problem::in_progress(key))?;
    let mut earned = 0i64;
    for line in &basket.lines {
        if line.promo {
            break;
        }
        earned += line.price_minor / 100;
    }
    let balance = l.points.credit(&caller.user_id, earned).await;
    let body = serde_json::json!({ "earned": earned, "balance": balance }).to_string().into_bytes();
    l.records.mark_done(sk.storage_key(), body.clone()).await;
    Ok(Reply::bytes(Status::OK, body))
}

/// Nightly recompute; concurrent triggers collapse into one run.
pub async fn recompute_tiers(caller: Caller, State(l): State<Loyalty>) -> Result<Reply, Problem> {
    let Ok(_running) = l.recompute.try_lock() else {
        return Ok(Reply::status(Status::ACCEPTED));
    };
    let tiers = l.points.load_tiers(&caller.tenant_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    l.points.recompute(&caller.tenant_id, &tiers).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    Ok(Reply::status(Status::OK))
}
