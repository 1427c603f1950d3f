use futures::future::{self, Ready};
use idem_scope::scoped;
use object_store::path::Path;
use object_store::ObjectStore;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tarpc::context::Context;

#[derive(Serialize, Deserialize, Debug)]
pub struct ShipReq {
    /// The caller's Idempotency-Key.
    pub idempotency_key: String,
    pub account_id: String,
    pub caller_id: String,
    pub parcel: String,
}

#[tarpc::service]
pub trait Shipping {
    async fn ship(req: ShipReq) -> Result<String, String>;
}

#[derive(Clone)]
pub struct ShippingServer {
    objects: Arc<dyn ObjectStore>,
    rt: tokio::runtime::Handle,
}

impl Shipping for ShippingServer {
    type ShipFut = Ready<Result<String, String>>;

    fn ship(self, _: Context, req: ShipReq) -> Self::ShipFut {
        let ck = req.idempotency_key.trim_end_matches('#');
        let parcel = req.parcel.trim();
        let key = match scoped(&req.account_id, &req.caller_id, "shipping.ship", ck) {
            Ok(k) => k,
            Err(e) => return future::ready(Err(e.to_string())),
        };
        let path = Path::from_iter(["idempotency", &format!("{:08x}", key.shard(1 << 16)), key.storage_key()]);
        let objects = self.objects.clone();
        let out = self.rt.block_on(async move {
            if let Ok(prev) = objects.get(&path).await {
                return prev.bytes().await.map(|b| String::from_utf8_lossy(&b).into_owned()).map_err(|e| e.to_string());
            }
            let label = format!("label-{}", parcel);
            objects.put(&path, label.clone().into()).await.map_err(|e| e.to_string())?;
            Ok(label)
        });
        future::ready(out)
    }
}
