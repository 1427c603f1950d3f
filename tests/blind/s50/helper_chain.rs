//! Device enrollment over a kube-hosted service; keys travel through small helpers.
use hashbrown::HashMap;
use http::HeaderMap;
use idem_scope::scoped;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

fn raw_header<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).and_then(|v| v.to_str().ok())
}

fn extract(h: &HeaderMap) -> Option<&str> {
    raw_header(h, IDEMPOTENCY_HEADER)
}

fn normalize(k: &str) -> String {
    k.trim().to_ascii_lowercase()
}

pub struct Enrollment {
    dedup: HashMap<String, String>,
    by_scope: HashMap<String, String>,
}

impl Enrollment {
    pub fn enroll(&mut self, headers: &HeaderMap, device: &str) -> Result<String, String> {
        let k = extract(headers).ok_or("missing Idempotency-Key")?;
        let nk = normalize(k);
        let out = self
            .dedup
            .entry(nk)
            .or_insert_with(|| format!("{{\"device\":\"{device}\"}}"));
        Ok(out.clone())
    }

    pub fn retire(&mut self, headers: &HeaderMap, tenant_id: &str, user_id: &str, device: &str) -> Result<String, String> {
        let k = extract(headers).ok_or("missing Idempotency-Key")?;
        let sk = scoped(tenant_id, user_id, "devices.retire", &normalize(k)).map_err(|e| e.to_string())?;
        let out = self
            .by_scope
            .entry(sk.storage_key().to_owned())
            .or_insert_with(|| format!("{{\"retired\":\"{device}\"}}"));
        Ok(out.clone())
    }
}
