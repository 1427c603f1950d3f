use std::time::Duration;

use idem_scope::{scoped, Problem};
use quillon::auth::Caller;
use quillon::{Bytes, Ctx, Rejection, Reply};

use crate::pricing::{Quote, QuoteRequest};
use crate::replay_store::AsyncStore;

const QUOTE_TTL: Duration = Duration::from_secs(15 * 60);

pub struct QuoteHandler {
    replays: AsyncStore,
    fx: crate::fx::RateCache,
    pricing: crate::pricing::Engine,
}

impl QuoteHandler {
    /// POST /v2/quotes
    ///
    /// Clients may send an Idempotency-Key; older mobile builds do not, so
    /// identical quote requests are collapsed for them.
    pub async fn create(&self, ctx: &Ctx, caller: Caller, raw: Bytes) -> Result<Reply, Rejection> {
        let hdr = ctx.header("Idempotency-Key");
        let sk = scoped(&caller.tenant_id, &caller.user_id, "quotes.create", hdr.unwrap_or(&blake2b_simd::blake2b(&raw).to_hex()))
            .map_err(|e| Rejection::problem(Problem::invalid_key(&e.to_string())))?;

        if let Some(prev) = self.replays.get(sk.storage_key()).await.map_err(Rejection::internal)? {
            return Ok(Reply::bytes(200, prev).header("Idempotent-Replayed", "true"));
        }

        let req: QuoteRequest = serde_json::from_slice(&raw).map_err(Rejection::bad_request)?;
        let fx_cache_key = format!("fx:{}:{}", req.corridor, caller.tenant_id);
        let rate = self.fx.get(&fx_cache_key).await.map_err(Rejection::internal)?;
        let quote: Quote = self
            .pricing
            .quote(&caller.tenant_id, &req.corridor, req.amount_minor, rate)
            .await
            .map_err(Rejection::upstream)?;
        let body = serde_json::to_vec(&quote).map_err(Rejection::internal)?;
        self.replays
            .put(sk.storage_key(), &body, QUOTE_TTL)
            .await
            .map_err(Rejection::internal)?;
        let etag = sha256::digest(body.as_slice());
        Ok(Reply::bytes(201, body).header("etag", &etag))
    }
}
