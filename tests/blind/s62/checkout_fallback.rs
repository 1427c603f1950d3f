use std::sync::Arc;

use bech32::{Bech32m, Hrp};
use graviola::hashing::sha2::Sha512Context;
use idem_scope::{decide, scoped, Decision, Fingerprint, Problem, Record};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::RawBody;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
struct CheckoutIn {
    cart_id: String,
    payment_method: String,
}

pub struct Checkout {
    vault: Arc<Vault>,
    carts: carts::Service,
}

fn body_digest(raw: &[u8]) -> String {
    let mut ctx = Sha512Context::new();
    ctx.update(raw);
    let digest = ctx.finish();
    bech32::encode::<Bech32m>(Hrp::parse("chk").expect("static hrp"), &digest[..20]).expect("short payload")
}

impl Checkout {
    pub async fn create(&self, ctx: &Ctx, caller: &Caller, RawBody(raw): RawBody) -> Reply {
        let header_key = ctx.header("Idempotency-Key");
        let fingerprint = Fingerprint::of("/v1/checkout", &raw);
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "checkout.create", &header_key.map(str::to_owned).unwrap_or_else(|| body_digest(&raw))) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };

        let existing: Option<Record> = self.vault.get(sk.storage_key()).await.ok().flatten().and_then(|b| Record::decode(&b));
        match decide(existing.as_ref(), &fingerprint) {
            Decision::Replay => return Reply::bytes(Status::OK, existing.map(|r| r.body().to_vec()).unwrap_or_default()),
            Decision::InProgress => return Reply::problem(Problem::in_progress(header_key.unwrap_or(""))),
            Decision::Mismatch => return Reply::problem(Problem::mismatch(header_key.unwrap_or(""))),
            Decision::Proceed => {}
        }

        let input: CheckoutIn = match serde_json::from_slice(&raw) {
            Ok(v) => v,
            Err(e) => return Reply::text(Status::BAD_REQUEST, e.to_string()),
        };
        let order = self.carts.checkout(&caller.tenant_id, &input.cart_id, &input.payment_method).await;
        let rec = Record::completed(fingerprint).with_body(order.to_bytes());
        let _ = self.vault.put(sk.storage_key(), rec.encode()).await;
        Reply::bytes(Status::CREATED, order.to_bytes())
    }
}
