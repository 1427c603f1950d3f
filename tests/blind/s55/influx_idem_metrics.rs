use std::time::{SystemTime, UNIX_EPOCH};

use influxdb::{Client, Error, InfluxDbWriteable, Timestamp};
use relay::http::HeaderMap;

pub struct IdemMetrics {
    influx: Client,
}

pub struct Outcome<'a> {
    pub tenant: Option<&'a str>,
    pub route: &'a str,
    pub replayed: bool,
    pub latency_ms: u64,
}

fn now_ms() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0)
}

impl IdemMetrics {
    pub fn new(url: &str, db: &str) -> Self {
        Self { influx: Client::new(url, db) }
    }

    pub async fn record(&self, headers: &HeaderMap, o: Outcome<'_>) -> Result<(), Error> {
        let Some(client_key) = headers.get("X-Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            return Ok(());
        };
        let tenant = o.tenant.unwrap_or("unknown");
        let annotation = format!("{} replay of {} on {}", tenant, client_key, o.route);

        let point = Timestamp::Milliseconds(now_ms())
            .into_query("idempotency")
            .add_tag("tenant", tenant)
            .add_tag("route", o.route.replace('/', "."))
            .add_field("replayed", o.replayed)
            .add_field("key_len", client_key.len() as i64)
            .add_field("latency_ms", o.latency_ms as i64)
            .add_field("note", annotation);
        self.influx.query(point).await.map(|_| ())
    }

    pub async fn record_conflict(&self, tenant: &str, route: &str) -> Result<(), Error> {
        let point = Timestamp::Milliseconds(now_ms())
            .into_query("idempotency_conflicts")
            .add_tag("tenant", tenant)
            .add_tag("route", route)
            .add_field("count", 1i64);
        self.influx.query(point).await.map(|_| ())
    }
}
