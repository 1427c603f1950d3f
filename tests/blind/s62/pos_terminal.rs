use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

const MERCHANT_UNKNOWN: &str = "merchant-unknown";

pub struct Terminal {
    pub serial: String,
    pub merchant_id: Option<String>,
}

pub struct ApiKey {
    pub merchant_id: String,
    pub api_key_id: String,
}

#[derive(Deserialize)]
pub struct Sale {
    amount_minor: u64,
    currency: String,
    card_token: String,
}

#[derive(Deserialize)]
pub struct Refund {
    sale_id: String,
    sub_merchant_id: Option<String>,
}

pub struct Pos {
    vault: Arc<Vault>,
    acquirer: acquirer::Client,
}

impl Pos {
    pub async fn sale(&self, ctx: &Ctx, terminal: &Terminal, Json(sale): Json<Sale>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let merchant_id = terminal.merchant_id.as_deref().unwrap_or(MERCHANT_UNKNOWN);
        let caller_id = terminal.serial.clone();
        let sk = match scoped(merchant_id, &caller_id, "pos.sale", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let card_fingerprint = cryptoxide::hashing::sha256(sale.card_token.as_bytes());
        let auth = self.acquirer.authorise(merchant_id, sale.amount_minor, &sale.currency, &sale.card_token, &card_fingerprint).await;
        let _ = self.vault.put(sk.storage_key(), auth.to_bytes()).await;
        Reply::bytes(Status::CREATED, auth.to_bytes())
    }

    pub async fn refund(&self, ctx: &Ctx, api_key: &ApiKey, Json(req): Json<Refund>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let merchant_id = req.sub_merchant_id.as_deref().unwrap_or(&api_key.merchant_id);
        let sk = match scoped(merchant_id, &api_key.api_key_id, "pos.refund", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let refund = self.acquirer.refund(merchant_id, &req.sale_id).await;
        let _ = self.vault.put(sk.storage_key(), refund.to_bytes()).await;
        Reply::bytes(Status::CREATED, refund.to_bytes())
    }
}
