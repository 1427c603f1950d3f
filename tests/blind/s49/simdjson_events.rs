//! Inbound provider events (payment provider webhooks) next to the public capture API.
#[derive(serde::Deserialize)]
pub struct ProviderEvent {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub account_id: String,
}

pub struct Captures {
    pub idem: crate::kv::Kv,
    pub seen_events: crate::kv::Kv,
    pub principal: String,
}

impl Captures {
    pub async fn api_capture(&self, parts: &http::request::Parts, who: &crate::Who) -> Result<Vec<u8>, crate::Error> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let key = idem_scope::scoped(&who.merchant_id, &who.user_id, "charges.capture", &client_key)?;
        if let Some(prev) = self.idem.get(key.storage_key()).await? {
            return Ok(prev);
        }
        let out = crate::charges::capture(&who.merchant_id).await?;
        self.idem.put(key.storage_key(), out.clone()).await?;
        Ok(out)
    }

    pub async fn on_event(&self, mut raw: Vec<u8>) -> Result<(), crate::Error> {
        let evt: ProviderEvent = simd_json::serde::from_slice(&mut raw)?;
        if self.seen_events.get(&evt.id).await?.is_some() {
            return Ok(());
        }
        self.seen_events.put(&evt.id, b"seen".to_vec()).await?;
        if evt.kind == "charge.authorized" {
            let key = idem_scope::scoped(&evt.account_id, &self.principal, "charges.capture", &evt.id)?;
            let out = crate::charges::capture(&evt.account_id).await?;
            self.idem.put(key.storage_key(), out).await?;
        }
        Ok(())
    }
}
