//! Price locks for the marketplace. Org ids are numeric here.

use granary::crib::Crib;
use portcullis::{Call, Reply, Status};

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct OrgId(pub u64);

impl OrgId {
    pub const PUBLIC: OrgId = OrgId(0);
}

fn org_from(call: &Call) -> Option<OrgId> {
    call.header("x-org").and_then(|v| v.parse().ok()).map(OrgId)
}

pub async fn lock_price(crib: &Crib, call: Call) -> Reply {
    let org = org_from(&call).unwrap_or(OrgId::PUBLIC);
    let Some(user) = call.header("x-user") else { return Reply::status(Status::Unauthorized) };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = crib.get(&org.0.to_string(), user, "price.lock", k).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::pricing::lock(org.0, call.body()).await;
    let _ = crib.put(&org.0.to_string(), user, "price.lock", k, out.clone()).await;
    Reply::bytes(Status::Created, out)
}

pub async fn list_prices(prices: &granary::silo::Silo, call: Call) -> Reply {
    let org = org_from(&call).unwrap_or(OrgId::PUBLIC);
    match prices.get(&format!("price-list/{}", org.0)).await {
        Ok(Some(list)) => Reply::bytes(Status::Ok, list),
        _ => Reply::status(Status::NotFound),
    }
}
