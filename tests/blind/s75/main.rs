//! Box-office API binary for the Limelight venue group: wires the stage,
//! the ushers and the stores.
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use loft::batten::Batten;
use loft::pinrail::PinRail;
use proscenium::Stage;

#[derive(serde::Deserialize)]
struct Settings {
    loft_url: String,
    pg_url: String,
    listen: String,
    hosts: HashMap<String, String>,
    replay_ttl_hours: Option<u64>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_env_filter("info").init();
    let settings: Settings = serde_json::from_str(&std::fs::read_to_string("box-office.json")?)?;
    let keep = Duration::from_secs(settings.replay_ttl_hours.unwrap_or(24) * 3600);
    let batten = Batten::connect(&settings.loft_url).await?;
    let rail = PinRail::connect(&settings.pg_url).await?;

    let stage = Stage::new()
        .usher(crate::request_log::AccessLog { service: "box-office" })
        .usher(crate::usher_identity::VenueScope { hosts: settings.hosts.clone(), batten: batten.clone(), keep })
        .usher(crate::usher_idempotency::ReplayUsher { batten: batten.clone(), lease: Duration::from_secs(30), keep })
        .usher(crate::usher_idempotency::OnSaleGate { gate: tokio::sync::Semaphore::new(256) })
        .post("/v1/orders/tickets", crate::ticket_purchase::purchase)
        .post("/v1/holds", crate::seat_hold::hold_seats)
        .post("/v1/holds/:hold_id/extend", crate::seat_hold::extend_hold)
        .post("/v1/refunds", crate::refund_exchange::refund)
        .post("/v1/exchanges", crate::refund_exchange::exchange)
        .post("/v1/donations", crate::donation_pledge::donate)
        .post("/v1/pledges", crate::donation_pledge::pledge)
        .post("/v1/outbox/orders", crate::outbox_relay::place_order)
        .state(Arc::new(rail));

    let relay_rail = PinRail::connect(&settings.pg_url).await?;
    tokio::spawn(async move {
        let relay = crate::outbox_relay::Relay { rail: relay_rail, orders: crate::orders::OrderBook::default() };
        let mut tick = tokio::time::interval(Duration::from_secs(5));
        loop {
            tick.tick().await;
            if let Err(e) = crate::outbox_relay::relay_once(&relay).await {
                tracing::warn!(error = %e, "outbox relay pass failed");
            }
        }
    });

    stage.listen(&settings.listen).await?;
    Ok(())
}
