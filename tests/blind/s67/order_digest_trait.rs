use dunlin::tuple::TupleKv;
use plover::auth::Caller;
use plover::extract::Json;
use plover::{Reply, Status};

pub trait Digestible {
    fn digest(&self) -> String;
}

#[derive(plover::Deser)]
pub struct OrderInput {
    pub sku: String,
    pub qty: u32,
    pub ship_to: String,
}

impl Digestible for OrderInput {
    fn digest(&self) -> String {
        let text = format!("{}\n{}\n{}", self.sku, self.qty, self.ship_to);
        chksum_sha2_384::chksum(text.as_bytes()).unwrap().to_hex_lowercase()
    }
}

pub struct OrderRoutes {
    pub seen: TupleKv,
}

impl OrderRoutes {
    pub async fn place(&self, caller: Caller, Json(input): Json<OrderInput>) -> Reply {
        let slot = (caller.tenant_id.as_str(), caller.user_id.as_str(), "order.place", input.digest());
        if let Ok(Some(prev)) = self.seen.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let order = crate::orders::place(&caller, &input).await;
        let body = order.to_bytes();
        let etag = chksum_sha2_384::chksum(&body).unwrap().to_hex_lowercase();
        self.seen.put(&slot, body.clone()).await.ok();
        Reply::bytes(Status::CREATED, body).with_header("ETag", format!("\"{}\"", etag))
    }
}
