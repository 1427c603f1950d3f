//! FX conversion requests arrive on a SeaStreamer stream from the gateway,
//! which forwards the caller's key in the JSON envelope.

use granary::lease::Leases;
use granary::silo::Silo;
use idem_scope::scoped;
use sea_streamer::{Buffer, Consumer, Message};
use std::time::Duration;

#[derive(serde::Deserialize)]
struct Envelope {
    org_id: String,
    user_id: String,
    /// The client's Idempotency-Key, forwarded by the gateway.
    idempotency_key: String,
    currency: String,
    amount_minor: i64,
}

pub async fn run<C: Consumer>(consumer: C, silo: Silo, leases: Leases) -> anyhow::Result<()> {
    loop {
        let msg = consumer.next().await?;
        let Ok(env) = serde_json::from_str::<Envelope>(msg.message().as_str()?) else { continue };
        let silo = silo.clone();
        tokio::spawn(async move {
            let Ok(key) = scoped(&env.org_id, &env.user_id, "fx.convert", &env.idempotency_key) else { return };
            if !silo.try_claim(key.storage_key()).await.unwrap_or(false) {
                return;
            }
            let rate = match env.currency.as_str() {
                "EUR" | "USD" | "GBP" => crate::fx::rate(&env.currency).await,
                _ => todo!("exotic currencies"),
            };
            let out = crate::fx::convert(env.amount_minor, rate);
            let _ = silo.complete(key.storage_key(), &out.to_le_bytes()).await;
        });
        if let Ok(lease) = leases.acquire("fx-rates-refresh", Duration::from_secs(60)).await {
            crate::fx::refresh_rates().await?;
            leases.release(lease).await?;
        }
    }
}
