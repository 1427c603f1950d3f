use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use idem_scope::{scoped, Problem};
use rs_consul::{Consul, CreateOrUpdateKeyRequest, ReadKeyRequest};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Subscribe {
    pub url: String,
    pub events: Vec<String>,
}

pub struct HookApi {
    consul: Consul,
    hooks: crate::hooks::Registry,
}

pub struct Incoming<'a> {
    pub headers: &'a http::HeaderMap,
    pub body: &'a [u8],
}

fn header<'a>(h: &'a http::HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).and_then(|v| v.to_str().ok()).map(str::trim)
}

impl HookApi {
    pub async fn subscribe(&self, req: Incoming<'_>) -> Result<(u16, Vec<u8>), Problem> {
        let key = header(req.headers, "Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let raw_tenant = header(req.headers, "x-tenant-id").ok_or_else(|| Problem::invalid_key("no tenant"))?;
        let caller_id = header(req.headers, "x-caller-id").ok_or_else(|| Problem::invalid_key("no caller"))?;

        let tenant_id = raw_tenant.replace(':', "_");
        let sk = scoped(&tenant_id, caller_id, "hooks.subscribe", key)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let path = format!("idem/hooks/{}", URL_SAFE_NO_PAD.encode(sk.storage_key()));

        let existing = self
            .consul
            .read_key(ReadKeyRequest { key: &path, ..Default::default() })
            .await;
        if let Ok(mut found) = existing {
            if let Some(value) = found.pop().and_then(|kv| kv.value) {
                return Ok((200, value.into_bytes()));
            }
        }

        let input: Subscribe = serde_json::from_slice(req.body).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let sub = self.hooks.subscribe(&tenant_id, &input.url, &input.events).await;
        let body = serde_json::to_vec(&sub).unwrap_or_default();
        let _ = self
            .consul
            .create_or_update_key(CreateOrUpdateKeyRequest { key: &path, ..Default::default() }, body.clone())
            .await;
        Ok((201, body))
    }
}
