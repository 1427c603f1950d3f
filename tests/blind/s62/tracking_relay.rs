use std::sync::Arc;

use idem_scope::{scoped, scoped_server, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::{Json, RawBody};
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct LabelRequest {
    shipment_id: String,
    service_level: String,
}

#[derive(Deserialize)]
struct CarrierEvent {
    event_id: String,
    carrier_account: String,
    shipment_id: String,
    status: String,
}

#[derive(Deserialize)]
struct CarrierRecall {
    recall_id: String,
    tenant_id: String,
    shipment_id: String,
}

pub struct Tracking {
    vault: Arc<Vault>,
    carriers: carriers::Hub,
}

impl Tracking {
    pub async fn buy_label(&self, ctx: &Ctx, caller: &Caller, Json(req): Json<LabelRequest>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "labels.buy", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let slot = format!("req/{}", sk.storage_key());
        if let Ok(Some(prev)) = self.vault.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let label = self.carriers.buy_label(&req.shipment_id, &req.service_level).await;
        let _ = self.vault.put(&slot, label.to_bytes()).await;
        Reply::bytes(Status::CREATED, label.to_bytes())
    }

    pub async fn carrier_event(&self, RawBody(body): RawBody) -> Reply {
        let Ok(ev) = serde_json::from_slice::<CarrierEvent>(&body) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let slot = format!("evt/{}/{}/{}", ev.carrier_account, ev.shipment_id, ev.event_id);
        if self.vault.exists(&slot).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        self.carriers.record_status(&ev.shipment_id, &ev.status).await;
        let _ = self.vault.put(&slot, ev.status.into_bytes()).await;
        Reply::status(Status::OK)
    }

    pub async fn carrier_recall(&self, Json(recall): Json<CarrierRecall>) -> Reply {
        let Ok(sk) = scoped_server(&recall.tenant_id, "carrier-hub", "labels.recall", &recall.recall_id) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if self.vault.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        self.carriers.recall(&recall.shipment_id).await;
        let _ = self.vault.put(sk.storage_key(), b"recalled".to_vec()).await;
        Reply::status(Status::OK)
    }
}
