use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::tuple::TupleLocker;

#[derive(Deserialize)]
pub struct Register {
    pub url: String,
    pub events: Vec<String>,
}

#[derive(Serialize, Hash, PartialEq, Eq)]
pub struct EndpointKey<'a> {
    pub tenant_id: &'a str,
    pub idem_key: &'a str,
}

pub struct Endpoints {
    pub tuples: TupleLocker,
    pub registry: crate::hooks::Registry,
}

impl Endpoints {
    pub async fn register(&self, caller: Caller, head: Head, Json(r): Json<Register>) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(caller.tenant_id(), "", "webhook_register", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.tuples.get(&sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let ep = self.registry.add(caller.tenant_id(), &r.url, &r.events).await.unwrap_or_default();
        let _ = self.tuples.put(&sk.storage_key(), &ep, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, ep)
    }

    pub async fn rotate_secret(&self, caller: Caller, head: Head, endpoint: String) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let ek = EndpointKey { tenant_id: caller.tenant_id(), idem_key: key };
        if let Ok(Some(prev)) = self.tuples.get(&ek).await {
            return Reply::bytes(Status::OK, prev);
        }
        let secret = self.registry.rotate(caller.tenant_id(), &endpoint).await.unwrap_or_default();
        let _ = self.tuples.put(&ek, &secret, Duration::from_secs(3600)).await;
        Reply::bytes(Status::OK, secret)
    }
}
