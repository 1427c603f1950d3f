use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use ext_php_rs::prelude::*;
use idem_scope::scoped;
use quarry::kv::SyncVault;

const LEASE: Duration = Duration::from_secs(90);

struct Ext {
    book: Arc<SyncVault>,
    gateway: card_gateway::Blocking,
}

static EXT: OnceLock<Ext> = OnceLock::new();

fn ext() -> PhpResult<&'static Ext> {
    EXT.get().ok_or_else(|| PhpException::default("card extension not initialised".into()))
}

#[php_function]
pub fn charge_card(tenant: String, user_id: String, idempotency_key: String, token: String, amount: i64) -> PhpResult<String> {
    let ext = ext()?;
    let sk = scoped(&tenant, &user_id, "cards.charge", &idempotency_key).map_err(|e| PhpException::default(e.to_string()))?;
    let k = sk.storage_key();
    if !ext.book.claim(k, LEASE) {
        return Err(PhpException::default("request in progress".into()));
    }
    let charge = ext
        .gateway
        .charge(&token, amount)
        .map_err(|e| {
            ext.book.release(k);
            PhpException::default(e.to_string())
        })?;
    ext.book.complete(k, charge.id.as_bytes().to_vec());
    Ok(charge.id)
}

#[php_function]
pub fn refund_card(tenant: String, user_id: String, idempotency_key: String, charge_id: String) -> PhpResult<String> {
    let ext = ext()?;
    let sk = scoped(&tenant, &user_id, "cards.refund", &idempotency_key).map_err(|e| PhpException::default(e.to_string()))?;
    let k = sk.storage_key();
    if !ext.book.claim(k, LEASE) {
        return Err(PhpException::default("request in progress".into()));
    }
    let refund = match catch_unwind(AssertUnwindSafe(|| ext.gateway.refund(&charge_id))) {
        Ok(Ok(refund)) => refund,
        Ok(Err(e)) => {
            ext.book.release(k);
            return Err(PhpException::default(e.to_string()));
        }
        Err(panic) => {
            ext.book.release(k);
            resume_unwind(panic);
        }
    };
    ext.book.complete(k, refund.id.as_bytes().to_vec());
    Ok(refund.id)
}

#[php_function]
pub fn tokenize_card(tenant: String, user_id: String, idempotency_key: String, pan: String) -> PhpResult<String> {
    let ext = ext()?;
    let sk = scoped(&tenant, &user_id, "cards.tokenize", &idempotency_key).map_err(|e| PhpException::default(e.to_string()))?;
    let vaulted = ext.gateway.tokenize(&pan).map_err(|e| PhpException::default(e.to_string()))?;
    if ext.book.claim(sk.storage_key(), LEASE) {
        ext.book.complete(sk.storage_key(), vaulted.token.as_bytes().to_vec());
    }
    Ok(vaulted.token)
}

#[php_module]
pub fn get_module(module: ModuleBuilder) -> ModuleBuilder {
    module
}
