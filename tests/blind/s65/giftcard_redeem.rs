use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use kestrel::blocking::{Request, Response};
use tessera::kv::BlockingKv;

use crate::giftcards::{Balance, CardError, CardVault};

const IN_PROGRESS: &[u8] = b"in_progress";

pub struct GiftCardRedeem {
    kv: Arc<BlockingKv>,
    vault: Arc<CardVault>,
}

impl GiftCardRedeem {
    pub fn redeem(&self, req: &Request) -> Response {
        let Some(who) = req.identity() else {
            return Response::status(401);
        };
        let Some(retry) = req.header("Idempotency-Key") else {
            return Response::problem(Problem::missing_key());
        };
        let key = match scoped(&who.merchant_id, &who.user_id, "giftcard_redeem", retry) {
            Ok(k) => k,
            Err(e) => return Response::problem(Problem::invalid_key(&e.to_string())),
        };
        match self.kv.set_nx(key.storage_key(), IN_PROGRESS, Duration::from_secs(60)) {
            Ok(true) => {}
            Ok(false) => return Response::problem(Problem::in_progress(retry)),
            Err(_) => return Response::status(503),
        }
        let card = req.path_param("card").unwrap_or_default();
        let amount: i64 = req.query("amount").and_then(|a| a.parse().ok()).unwrap_or(0);
        let balance: Balance = match self.vault.debit(&who.merchant_id, &card, amount) {
            Ok(b) => b,
            Err(CardError::Insufficient { available }) => {
                return Response::json(402, &kestrel::json!({ "available": available }));
            }
            Err(CardError::Unknown) => {
                let _ = self.kv.remove(key.storage_key());
                return Response::status(404);
            }
        };
        let body = kestrel::json::to_vec(&balance).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), &body);
        Response::bytes(200, body)
    }
}
