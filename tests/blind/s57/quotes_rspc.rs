use std::sync::Arc;

use rspc::{ErrorCode, RouterBuilder};
use serde::Deserialize;
use specta::Type;
use unqlite::{UnQLite, KV};

use crate::pricing::{Quote, QuoteEngine};

pub struct ApiCtx {
    pub tenant_id: String,
    pub user_id: String,
    pub quote_db: Arc<UnQLite>,
    pub engine: Arc<QuoteEngine>,
}

#[derive(Deserialize, Type)]
pub struct QuoteInput {
    /// Client-generated idempotency key; retries of the same quote request
    /// must send the same value.
    pub request_key: String,
    pub sku: String,
    pub quantity: u32,
    pub currency: Option<String>,
}

#[derive(Deserialize, Type)]
pub struct ReplayLookup {
    /// The idempotency key the client sent with `quotes.create`.
    pub request_key: String,
}

fn bad_request(e: impl ToString) -> rspc::Error {
    rspc::Error::new(ErrorCode::BadRequest, e.to_string())
}

fn internal(e: impl ToString) -> rspc::Error {
    rspc::Error::new(ErrorCode::InternalServerError, e.to_string())
}

pub fn mount(router: RouterBuilder<ApiCtx>) -> RouterBuilder<ApiCtx> {
    router
        .mutation("quotes.create", |t| {
            t(|ctx: ApiCtx, input: QuoteInput| async move {
                let sk = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, "quotes.create", &input.request_key)
                    .map_err(bad_request)?;
                if let Ok(prev) = ctx.quote_db.kv_fetch(sk.storage_key()) {
                    return serde_json::from_slice::<Quote>(&prev).map_err(internal);
                }
                let currency = input.currency.as_deref().unwrap_or("USD");
                let quote = ctx
                    .engine
                    .price(&ctx.tenant_id, &input.sku, input.quantity, currency)
                    .map_err(internal)?;
                let bytes = serde_json::to_vec(&quote).map_err(internal)?;
                ctx.quote_db.kv_store(sk.storage_key(), bytes).map_err(internal)?;
                Ok(quote)
            })
        })
        .query("quotes.wasReplayed", |t| {
            t(|ctx: ApiCtx, input: ReplayLookup| async move {
                let found = ctx.quote_db.kv_fetch(&input.request_key).is_ok();
                Ok(found)
            })
        })
}
