use idem_scope::{scoped, Component, ScopeError, ScopedKey};
use tokio_rusqlite::{params, Connection, OptionalExtension};

#[derive(Default)]
pub struct ScopeBuilder {
    tenant: Option<String>,
    principal: Option<String>,
    route: Option<&'static str>,
}

impl ScopeBuilder {
    pub fn tenant(mut self, t: &str) -> Self {
        self.tenant = Some(t.to_owned());
        self
    }

    pub fn principal(mut self, p: &str) -> Self {
        self.principal = Some(p.chars().filter(|c| *c != '\x1e').collect());
        self
    }

    pub fn route(mut self, r: &'static str) -> Self {
        self.route = Some(r);
        self
    }

    pub fn build(self, client_key: &str) -> Result<ScopedKey, ScopeError> {
        let tenant = self.tenant.ok_or(ScopeError::Missing(Component::Tenant))?;
        let principal = self.principal.ok_or(ScopeError::Missing(Component::Principal))?;
        let route = self.route.ok_or(ScopeError::Missing(Component::Route))?;
        scoped(&tenant, &principal, route, client_key)
    }
}

pub struct SqliteIdem {
    conn: Connection,
}

impl SqliteIdem {
    pub async fn lookup(&self, sk: &ScopedKey) -> tokio_rusqlite::Result<Option<Vec<u8>>> {
        let k = sk.storage_key().to_owned();
        self.conn
            .call(move |c| {
                c.query_row("SELECT response FROM idem_responses WHERE storage_key = ?1", params![k], |r| r.get(0))
                    .optional()
                    .map_err(Into::into)
            })
            .await
    }
}

pub fn vanity_slug(handle: &str) -> String {
    handle.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect::<String>().to_lowercase()
}

pub async fn rotate_keys(idem: &SqliteIdem, tenant_id: &str, caller_id: &str, headers: &[(String, String)]) -> anyhow::Result<Option<Vec<u8>>> {
    let key = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key"))
        .map(|(_, v)| v.as_str())
        .ok_or_else(|| anyhow::anyhow!("missing key"))?;
    let sk = ScopeBuilder::default()
        .tenant(tenant_id)
        .principal(caller_id)
        .route("keys.rotate")
        .build(key)?;
    Ok(idem.lookup(&sk).await?)
}
