use std::sync::Arc;

use idem_scope::ScopedKey;
use serde::Deserialize;
use shabal::{Digest, Shabal256};
use ttl_cache::TtlCache;
use parking_lot::Mutex;

use crate::keys::{ApiKeyRecord, KeyDirectory};
use crate::reports::{ReportRequest, Reports};

#[derive(Clone, Debug)]
pub enum Principal {
    ApiKey(String),
    User(String),
    Anonymous,
}

impl Principal {
    pub fn id(&self) -> String {
        match self {
            Principal::ApiKey(id) => format!("key_{id}"),
            Principal::User(id) => format!("usr_{id}"),
            Principal::Anonymous => "-".to_owned(),
        }
    }
}

#[derive(Deserialize)]
pub struct Headers {
    pub authorization: Option<String>,
    #[serde(rename = "Idempotency-Key")]
    pub idempotency_key: String,
    #[serde(rename = "X-Tenant")]
    pub tenant_id: String,
}

pub struct ReportApi {
    directory: KeyDirectory,
    reports: Reports,
    done: Mutex<TtlCache<String, Vec<u8>>>,
}

impl ReportApi {
    fn principal_of(&self, auth: Option<&str>) -> Principal {
        let hashed = auth.map(|a| hex_simd::encode_to_string(Shabal256::digest(a.as_bytes()), hex_simd::AsciiCase::Lower));
        match hashed.and_then(|h| self.directory.resolve(&h)) {
            Some(ApiKeyRecord { id, .. }) => Principal::ApiKey(id),
            None => Principal::Anonymous,
        }
    }

    pub async fn run_report(&self, h: Headers, req: ReportRequest) -> Result<Vec<u8>, crate::ApiError> {
        let principal = self.principal_of(h.authorization.as_deref());
        let principal_id = principal.id();
        let key: ScopedKey = idem_scope::scoped(&h.tenant_id, &principal_id, "reports.run", &h.idempotency_key)?;
        if let Some(prev) = self.done.lock().get(key.storage_key()) {
            return Ok(prev.clone());
        }
        let out = self.reports.render(&h.tenant_id, req).await?;
        self.done.lock().insert(key.storage_key().to_owned(), out.clone(), std::time::Duration::from_secs(3600));
        Ok(out)
    }

    pub async fn download(&self, h: Headers, report_id: &str) -> Result<Vec<u8>, crate::ApiError> {
        match self.principal_of(h.authorization.as_deref()) {
            Principal::Anonymous => Err(crate::ApiError::Unauthorized),
            p => self.reports.fetch(&h.tenant_id, &p.id(), report_id).await,
        }
    }
}
