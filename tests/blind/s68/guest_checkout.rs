use cobble::tuple::TupleVault;
use idem_scope::Problem;
use thimble::auth::MaybeCaller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct Cart {
    pub lines: Vec<(String, u32)>,
    pub email: String,
}

pub async fn checkout(ex: Exchange, who: MaybeCaller, Json(cart): Json<Cart>, store: &TupleVault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let merchant_id = who.merchant_id.as_deref().ok_or_else(|| Reply::status(Status::Unauthorized))?;
    let buyer = who.user_id.as_ref().map_or("guest", |u| u.as_str());
    let route = "checkout";

    let key = (merchant_id, buyer, route, raw);
    if let Some(done) = store.get(&key).await.map_err(|_| down())? {
        return Ok(Reply::from_stored(done));
    }
    store.put(&key, serde_json::to_vec(&cart).unwrap_or_default()).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Accepted))
}

pub async fn cart_badge(who: MaybeCaller, store: &TupleVault) -> Result<Reply, Reply> {
    let merchant_id = who.merchant_id.as_deref().ok_or_else(|| Reply::status(Status::Unauthorized))?;
    let count = store.count_prefix(&(merchant_id, "cart")).await.map_err(|_| down())?;
    Ok(Reply::json(Status::Ok, &count))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}

pub fn cart_total(cart: &Cart, price_of: impl Fn(&str) -> u64) -> u64 {
    cart.lines
        .iter()
        .map(|(sku, qty)| price_of(sku).saturating_mul(u64::from(*qty)))
        .sum()
}
