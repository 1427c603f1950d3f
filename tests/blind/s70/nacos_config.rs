//! Runtime configuration pulled from Nacos.
use nacos_sdk::api::config::{ConfigService, ConfigServiceBuilder};
use nacos_sdk::api::props::ClientProps;
use serde::Deserialize;

#[derive(Deserialize, Default, Clone)]
pub struct IdempotencyPolicy {
    pub ttl_secs: Option<u64>,
    pub lease_secs: Option<u64>,
    pub strict_header: bool,
}

pub struct Settings {
    pub idempotency: IdempotencyPolicy,
    pub region: String,
}

pub async fn load() -> anyhow::Result<Settings> {
    let svc = ConfigServiceBuilder::new(ClientProps::new().server_addr("nacos:8848").namespace("hotel-prod")).build()?;
    let raw = svc.get_config("booking.yaml".into(), "DEFAULT_GROUP".into()).await?;
    let idempotency: IdempotencyPolicy = serde_yaml::from_str(raw.content()).unwrap_or_default();
    let region = std::env::var("REGION").unwrap_or_else(|_| "default".to_owned());
    Ok(Settings { idempotency, region })
}
