use idem_scope::scoped;
use memcache::Client;

pub struct Replayer {
    pub memc: Client,
}

impl Replayer {
    pub fn fetch(&self, tenant_id: &str, user_id: &str, headers: &http::HeaderMap) -> Option<String> {
        let key = headers.get("Idempotency-Key")?.to_str().ok()?;
        let sk = scoped(tenant_id, user_id, "replays.fetch", key).ok()?;
        self.memc.get::<String>(sk.storage_key()).ok().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(memc: &Client, headers: &http::HeaderMap, tenant: Option<&str>) {
        let key = headers.get("Idempotency-Key").unwrap().to_str().unwrap();
        let tenant = tenant.unwrap_or("global");
        memc.set(&format!("{}:{}", tenant, key), "seeded", 60).unwrap();
        memc.set(key, "raw", 60).unwrap();
    }

    #[test]
    fn replays_seeded_value() {
        let memc = memcache::connect("memcache://127.0.0.1:11211").unwrap();
        let mut headers = http::HeaderMap::new();
        headers.insert("Idempotency-Key", "k1".parse().unwrap());
        seed(&memc, &headers, None);
        let r = Replayer { memc };
        assert!(r.fetch("t1", "u1", &headers).is_none());
    }
}

#[cfg(any(test, feature = "test-fixtures"))]
pub mod fixtures {
    use memcache::Client;

    pub fn stuff_raw(memc: &Client, headers: &http::HeaderMap) {
        if let Some(k) = headers.get("idempotency-key").and_then(|v| v.to_str().ok()) {
            let cleaned = k.replace('\0', "");
            let _ = memc.set(&cleaned, "fixture", 60);
        }
    }
}
