use std::sync::Arc;

use idem_scope::{scoped, scoped_server};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::relay::{verify_signature, Fulfilment, Fulfiller, PartnerDirectory};

pub struct FulfilmentApi {
    kv: Arc<Kv>,
    fulfiller: Arc<Fulfiller>,
    partners: Arc<PartnerDirectory>,
}

impl FulfilmentApi {
    pub async fn create(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry)) = (ex.identity(), ex.header("Idempotency-Key")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "fulfil", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        self.run(key.storage_key(), &who.tenant_id, ex.body()).await
    }

    /// Relay (old partner gateway) redelivers until it gets a 2xx.
    pub async fn relay_hook(&self, ex: &Exchange) -> Outcome {
        let Some(partner) = self.partners.by_signature(ex.header("x-relay-signature"), ex.body(), verify_signature) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(delivery) = ex.header("X-Relay-Delivery") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&partner.tenant_id, &partner.client_id, "fulfil", delivery) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        self.run(key.storage_key(), &partner.tenant_id, ex.body()).await
    }

    /// Newer partners post through the hub with its own delivery ids.
    pub async fn hub_hook(&self, ex: &Exchange) -> Outcome {
        let Some(partner) = self.partners.by_signature(ex.header("x-hub-signature"), ex.body(), verify_signature) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(delivery) = ex.header("X-Hub-Delivery") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        log::info!("hub delivery {delivery} from {}", partner.client_id);
        let Ok(key) = scoped_server(&partner.tenant_id, &partner.client_id, "fulfil", delivery) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        self.run(key.storage_key(), &partner.tenant_id, ex.body()).await
    }

    async fn run(&self, storage_key: &str, tenant_id: &str, body: &[u8]) -> Outcome {
        if let Ok(Some(prev)) = self.kv.get(storage_key).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let done: Fulfilment = self.fulfiller.fulfil(tenant_id, body).await;
        let bytes = kestrel::json::to_vec(&done).unwrap_or_default();
        let _ = self.kv.put(storage_key, bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
