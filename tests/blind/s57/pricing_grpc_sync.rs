use std::sync::Mutex;
use std::time::Duration;

use grpc::{ServerHandlerContext, ServerRequestSingle, ServerResponseUnarySink};
use lru_time_cache::LruCache;

use crate::proto::pricing::{PriceReply, PriceRequest};
use crate::proto::pricing_grpc::Pricing;
use crate::rates::RateTable;

pub struct PricingImpl {
    rates: RateTable,
    recent: Mutex<LruCache<String, PriceReply>>,
}

impl PricingImpl {
    pub fn new(rates: RateTable) -> Self {
        Self {
            rates,
            recent: Mutex::new(LruCache::with_expiry_duration_and_capacity(Duration::from_secs(600), 10_000)),
        }
    }

    fn execute(&self, req: &PriceRequest) -> PriceReply {
        let mut reply = PriceReply::new();
        reply.set_amount(self.rates.price(req.get_sku(), req.get_quantity()));
        reply
    }
}

impl Pricing for PricingImpl {
    fn price(
        &self,
        _ctx: ServerHandlerContext,
        req: ServerRequestSingle<PriceRequest>,
        resp: ServerResponseUnarySink<PriceReply>,
    ) -> grpc::Result<()> {
        let trace_tenant = req
            .metadata
            .get("x-trace-tenant")
            .and_then(|v| std::str::from_utf8(v).ok())
            .unwrap_or("unknown");
        log::debug!("price request tenant={} sku={}", trace_tenant, req.message.get_sku());

        let mut cache = match self.recent.lock() {
            Ok(c) => c,
            Err(poisoned) => poisoned.into_inner(),
        };
        let outcome = req
            .metadata
            .get("idempotency-key")
            .and_then(|v| std::str::from_utf8(v).ok())
            .map(|k| cache.entry(k.to_owned()).or_insert_with(|| self.execute(&req.message)).clone());
        drop(cache);

        let reply = outcome.unwrap_or_else(|| self.execute(&req.message));
        resp.finish(reply)
    }
}
