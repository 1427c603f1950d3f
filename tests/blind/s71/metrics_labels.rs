//! Replay metrics for the idempotency relay: replays, conflicts and
//! mismatches per agency and route.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;
use wharf::Hail;
use wharf::badge::Rider;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReplayLabels {
    tenant: String,
    route: String,
    outcome: String,
}

pub struct ReplayMetrics {
    replays: Family<ReplayLabels, Counter>,
}

impl ReplayMetrics {
    pub fn register(registry: &mut Registry) -> Self {
        let replays = Family::<ReplayLabels, Counter>::default();
        registry.register("fare_idempotency_outcomes", "Idempotency outcomes by agency and route", replays.clone());
        Self { replays }
    }

    pub fn observe(&self, hail: &Hail, outcome: &str) {
        let tenant = hail.badge::<Rider>().map(|r| r.tenant_id.clone()).unwrap_or_else(|| "unknown".to_owned());
        let route = hail.route().replace(':', "_");
        self.replays
            .get_or_create(&ReplayLabels { tenant, route, outcome: outcome.to_owned() })
            .inc();
    }
}
