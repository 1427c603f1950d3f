use std::sync::Arc;

use idem_scope::{scoped, scoped_server, Problem};
use quarry::kv::Vault;
use rusty_paseto::prelude::*;
use serde::Deserialize;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct SendSms {
    to: String,
    body: String,
}

#[derive(Deserialize)]
pub struct DeliveryReceipt {
    account_id: String,
    message_id: String,
    status: String,
}

pub struct SmsGateway {
    vault: Arc<Vault>,
    key: PasetoSymmetricKey<V4, Local>,
    carrier: carrier::Client,
}

impl SmsGateway {
    fn principal(&self, ctx: &Ctx) -> Option<(String, String)> {
        let token = ctx.header("authorization")?.strip_prefix("Bearer ")?;
        let claims = PasetoParser::<V4, Local>::default().parse(token, &self.key).ok()?;
        Some((claims["tid"].as_str()?.to_owned(), claims["sub"].as_str()?.to_owned()))
    }

    pub async fn send(&self, ctx: &Ctx, Json(msg): Json<SendSms>) -> Reply {
        let Some((_tenant, sub)) = self.principal(ctx) else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped("global", &sub, "sms.send", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let sid = self.carrier.send(&msg.to, &msg.body).await;
        let _ = self.vault.put(sk.storage_key(), sid.clone().into_bytes()).await;
        Reply::bytes(Status::ACCEPTED, sid.into_bytes())
    }

    pub async fn schedule(&self, ctx: &Ctx, Json(msg): Json<SendSms>) -> Reply {
        let Some((tenant, sub)) = self.principal(ctx) else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&tenant, &sub, "sms.schedule", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let job = self.carrier.schedule(&msg.to, &msg.body).await;
        let _ = self.vault.put(sk.storage_key(), job.clone().into_bytes()).await;
        Reply::bytes(Status::ACCEPTED, job.into_bytes())
    }

    pub async fn delivery_receipt(&self, Json(dlr): Json<DeliveryReceipt>) -> Reply {
        let Ok(sk) = scoped_server(&dlr.account_id, "carrier", "sms.dlr", &dlr.message_id) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if self.vault.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        let _ = self.vault.put(sk.storage_key(), dlr.status.into_bytes()).await;
        Reply::status(Status::OK)
    }
}
