use std::sync::Arc;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use boring::hash::MessageDigest;
use boring::pkey::PKey;
use boring::sign::Signer;
use idem_scope::{scoped, scoped_server, ScopedKey};

use crate::replay_store::AsyncStore;

pub struct ShopifyHooks {
    replays: Arc<AsyncStore>,
    secret: Vec<u8>,
    catalog: crate::catalog::Catalog,
}

fn hdr<'a>(h: &'a http::HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).and_then(|v| v.to_str().ok())
}

impl ShopifyHooks {
    fn verify(&self, headers: &http::HeaderMap, body: &[u8]) -> bool {
        let Some(sent) = hdr(headers, "X-Shopify-Hmac-Sha256") else { return false };
        let key = PKey::hmac(&self.secret).expect("hmac key");
        let mut signer = Signer::new(MessageDigest::sha256(), &key).expect("signer");
        let mac = signer.sign_oneshot_to_vec(body).unwrap_or_default();
        constant_time_eq(STANDARD.encode(mac).as_bytes(), sent.as_bytes())
    }

    pub async fn product_update(&self, headers: &http::HeaderMap, body: &[u8]) -> anyhow::Result<u16> {
        if !self.verify(headers, body) {
            return Ok(401);
        }
        let shop = hdr(headers, "X-Shopify-Shop-Domain").ok_or_else(|| anyhow::anyhow!("no shop"))?;
        let webhook_id = hdr(headers, "X-Shopify-Webhook-Id").ok_or_else(|| anyhow::anyhow!("no webhook id"))?;
        let route = hdr(headers, "X-Shopify-Topic").unwrap_or("products/update");
        let tenant_id = self.catalog.tenant_for_shop(shop).await?;
        let actor = format!("shopify-app:{shop}");

        let sk: ScopedKey = scoped_server(&tenant_id, &actor, route, webhook_id)?;
        if self.replays.get(sk.storage_key()).await?.is_some() {
            return Ok(200);
        }
        self.catalog.sync_product(&tenant_id, body).await?;
        self.replays.put(sk.storage_key(), b"synced", std::time::Duration::from_secs(172_800)).await?;
        Ok(200)
    }

    pub async fn manual_sync(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap) -> anyhow::Result<u16> {
        let key = hdr(headers, "Idempotency-Key").ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "catalog.sync", key)?;
        if self.replays.get(sk.storage_key()).await?.is_some() {
            return Ok(200);
        }
        self.catalog.full_sync(&caller.tenant_id).await?;
        self.replays.put(sk.storage_key(), b"synced", std::time::Duration::from_secs(86_400)).await?;
        Ok(202)
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
