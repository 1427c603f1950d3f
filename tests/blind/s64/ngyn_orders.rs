use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::time::Duration;

use idem_scope::{scoped, Fingerprint};
use ngyn::prelude::*;
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize, Hash)]
pub struct OrderLine {
    pub sku: String,
    pub qty: u32,
}

#[derive(Deserialize, Hash)]
pub struct PlaceOrder {
    pub store_id: String,
    pub lines: Vec<OrderLine>,
    pub coupon: Option<String>,
}

#[injectable]
pub struct OrderService {
    locker: Locker,
    catalog: crate::catalog::Catalog,
}

#[controller("/orders")]
pub struct OrdersController {
    svc: OrderService,
}

#[routes]
impl OrdersController {
    #[post("/")]
    async fn place(&self, cx: &mut NgynContext, body: Body) -> Result<JsonResult, HttpError> {
        let auth = cx.state::<crate::auth::Claims>().ok_or(HttpError::unauthorized())?;
        let raw = body.bytes().await?;
        let order: PlaceOrder = serde_json::from_slice(&raw).map_err(|_| HttpError::bad_request())?;

        let mut h = DefaultHasher::new();
        order.hash(&mut h);
        let order_tag = format!("{:016x}", h.finish());
        let sk = scoped(&auth.org_id, &auth.sub, "place_order", &order_tag).map_err(|_| HttpError::bad_request())?;
        if let Some(prev) = self.svc.locker.get(sk.storage_key()).await? {
            return Ok(JsonResult::raw(prev));
        }
        let fp = Fingerprint::of("place_order", &raw);
        let placed = self.svc.catalog.place(&auth.org_id, &order).await?;
        let record = serde_json::to_vec(&(fp.as_bytes(), &placed))?;
        self.svc.locker.put(sk.storage_key(), &record, Duration::from_secs(86_400)).await?;
        Ok(JsonResult::created(&placed))
    }

    #[get("/:id")]
    async fn show(&self, cx: &mut NgynContext) -> Result<JsonResult, HttpError> {
        let id = cx.params().get("id").ok_or(HttpError::not_found())?;
        let order = self.svc.catalog.order(id).await?;
        Ok(JsonResult::ok(&order))
    }
}
