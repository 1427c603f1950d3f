use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct PairDevice {
    pub mac: String,
    pub model: String,
}

pub struct Devices {
    pub locker: Locker,
    pub registry: crate::devices::Registry,
}

impl Devices {
    pub async fn pair(&self, caller: Caller, head: Head, Json(d): Json<PairDevice>) -> Reply {
        let Some(raw) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let client_key = raw.replace('/', "_");
        let agent = head.header("User-Agent").unwrap_or("unknown");
        tracing::info!(%agent, model = %d.model, "pairing device");
        let label = d.mac.to_uppercase().replace(':', "-");

        let sk = match scoped(caller.tenant_id(), caller.user_id(), "device_pair", &client_key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let device = match self.registry.pair(caller.tenant_id(), &d.mac, &label, &d.model).await {
            Ok(dev) => dev,
            Err(_) => return Reply::status(Status::CONFLICT),
        };
        let _ = self.locker.put(sk.storage_key(), &device, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, device)
    }
}
