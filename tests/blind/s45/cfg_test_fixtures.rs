use idem_scope::{scoped, ScopedKey};

pub struct Vault {
    secrets: SecretIdem,
    kms: Kms,
}

impl Vault {
    pub fn rotate(&self, headers: &[(&str, &str)], tenant_id: &str, user_id: &str, secret: &str) -> Result<String, VaultError> {
        let rotation_key = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| *v).ok_or(VaultError::MissingKey)?;
        let key: ScopedKey = scoped(tenant_id, user_id, "secrets.rotate", rotation_key)?;
        if let Some(v) = self.secrets.get(&key) {
            return Ok(v);
        }
        let v = self.kms.rotate(tenant_id, secret)?;
        self.secrets.put(&key, &v);
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct FakeIdem {
        rows: HashMap<String, String>,
    }

    #[test]
    fn replays_by_raw_header() {
        let headers = [("Idempotency-Key", "k-1")];
        let raw = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| *v).unwrap();
        let mut fake = FakeIdem { rows: HashMap::new() };
        fake.rows.insert(raw.to_owned(), "v1".into());
        let k = format!("t1:{}", raw);
        fake.rows.insert(k, "v2".into());
        assert_eq!(fake.rows.len(), 2);
    }

    #[test]
    fn tenant_fallback_in_fixture() {
        let tenant: Option<&str> = None;
        let t = tenant.unwrap_or("global");
        let key = scoped(t, "u1", "secrets.rotate", "k-2").unwrap();
        assert!(key.storage_key().starts_with("v1"));
    }
}
