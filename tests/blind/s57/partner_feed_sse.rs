use std::sync::Arc;
use std::time::Duration;

use eventsource_client::{self as es, Client, SSE};
use futures::TryStreamExt;
use serde::Deserialize;
use tallow::Kv;

use crate::catalog::{PriceChange, PriceList};

/// Client keys and partner event ids live in one bucket; client keys always
/// start with "c/" and partner events with "evt/", so they can never meet.
pub struct FeedSync {
    kv: Arc<Kv>,
    prices: Arc<PriceList>,
}

#[derive(Deserialize)]
struct PartnerPrice {
    tenant_id: String,
    user_id: String,
    sku: String,
    price_minor: i64,
}

impl FeedSync {
    pub async fn change_price(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, change: PriceChange) -> eyre::Result<()> {
        let client_key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| eyre::eyre!("missing Idempotency-Key"))?;
        let sk = idem_scope::scoped(tenant_id, user_id, "prices.change", client_key)?;
        let slot = format!("c/{}", sk.storage_key());
        if self.kv.get(&slot).await?.is_some() {
            return Ok(());
        }
        self.prices.apply(tenant_id, &change).await?;
        self.kv.put(&slot, b"done", Duration::from_secs(86_400)).await?;
        Ok(())
    }

    pub async fn follow(&self, url: &str) -> eyre::Result<()> {
        let client = es::ClientBuilder::for_url(url)?.reconnect(es::ReconnectOptions::reconnect(true).build()).build();
        let mut stream = client.stream();
        while let Some(item) = stream.try_next().await? {
            let SSE::Event(ev) = item else { continue };
            let Some(event_id) = ev.id.clone() else {
                log::warn!("partner event without id on {}", ev.event_type);
                continue;
            };
            let p: PartnerPrice = serde_json::from_str(&ev.data)?;
            let route = "prices.change";
            let slot = format!("evt/{}/{}/{}/{}", p.tenant_id, p.user_id, route, event_id);
            if self.kv.get(&slot).await?.is_some() {
                continue;
            }
            let change = PriceChange { sku: p.sku.clone(), price_minor: p.price_minor };
            self.prices.apply(&p.tenant_id, &change).await?;
            self.kv.put(&slot, b"done", Duration::from_secs(7 * 86_400)).await?;
        }
        Ok(())
    }
}
