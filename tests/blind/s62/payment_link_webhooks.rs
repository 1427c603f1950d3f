use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use standardwebhooks::Webhook;
use wicket::auth::Caller;
use wicket::extract::{Json, RawBody};
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct NewLink {
    amount_minor: u64,
    currency: String,
    description: String,
}

#[derive(Deserialize)]
struct PspEvent {
    account_id: String,
    actor: String,
    link_id: String,
    status: String,
}

pub struct PaymentLinks {
    vault: Arc<Vault>,
    psp: psp::Client,
    fulfilment: wreq::Client,
    webhook: Webhook,
}

impl PaymentLinks {
    pub async fn create(&self, ctx: &Ctx, caller: &Caller, Json(link): Json<NewLink>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.account_id, &caller.user_id, "links.create", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let created = self.psp.create_link(link.amount_minor, &link.currency, &link.description).await;
        let _ = self.vault.put(sk.storage_key(), created.to_bytes()).await;
        Reply::bytes(Status::CREATED, created.to_bytes())
    }

    pub async fn psp_webhook(&self, ctx: &Ctx, RawBody(body): RawBody) -> Reply {
        if self.webhook.verify(&body, ctx.headers()).is_err() {
            return Reply::status(Status::UNAUTHORIZED);
        }
        let Some(delivery_id) = ctx.header("webhook-id").map(str::to_owned) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let evt: PspEvent = match serde_json::from_slice(&body) {
            Ok(e) => e,
            Err(_) => return Reply::status(Status::BAD_REQUEST),
        };
        let sk = match scoped(&evt.account_id, &evt.actor, "psp.link_status", &delivery_id) {
            Ok(sk) => sk,
            Err(_) => return Reply::status(Status::BAD_REQUEST),
        };
        if self.vault.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        if evt.status == "paid" {
            let _ = self
                .fulfilment
                .post("https://fulfilment.internal/v1/orders")
                .header("Idempotency-Key", &delivery_id)
                .body(evt.link_id.clone())
                .send()
                .await;
        }
        let _ = self.vault.put(sk.storage_key(), evt.status.into_bytes()).await;
        Reply::status(Status::OK)
    }
}
