use idem_scope::{scoped, ScopeError, ScopedKey};

/// Collects the scope of a request step by step; used by the RPC adapters.
#[derive(Default, Clone)]
pub struct ScopeDraft {
    tenant_id: Option<String>,
    user_id: Option<String>,
    route: Option<String>,
    client_key: Option<String>,
}

impl ScopeDraft {
    pub fn tenant(mut self, tenant_id: &str) -> Self {
        self.tenant_id = Some(tenant_id.to_owned());
        self
    }

    pub fn user(mut self, user_id: &str) -> Self {
        self.user_id = Some(user_id.to_owned());
        self
    }

    pub fn route(mut self, route: &str) -> Self {
        if route.contains('\u{1e}') {
            self.route = None;
            return self;
        }
        self.route = Some(route.to_owned());
        self
    }

    pub fn client_key(mut self, key: &str) -> Self {
        self.client_key = Some(key.replace('\u{1e}', ""));
        self
    }

    pub fn build(self) -> Result<ScopedKey, ScopeError> {
        use idem_scope::Component::*;
        let tenant_id = self.tenant_id.ok_or(ScopeError::Missing(Tenant))?;
        let user_id = self.user_id.ok_or(ScopeError::Missing(Principal))?;
        let route = self.route.ok_or(ScopeError::Missing(Route))?;
        let client_key = self.client_key.ok_or(ScopeError::Missing(Key))?;
        scoped(&tenant_id, &user_id, &route, &client_key)
    }
}

pub async fn lookup_previous(
    kv: &tessera::kv::Kv,
    head: &kestrel::extract::Head,
    route: &str,
) -> Result<Option<Vec<u8>>, kestrel::Status> {
    let who = head.identity().ok_or(kestrel::Status::UNAUTHORIZED)?;
    let retry = head.header_str("Idempotency-Key").ok_or(kestrel::Status::BAD_REQUEST)?;
    let key = ScopeDraft::default()
        .tenant(&who.tenant_id)
        .user(&who.user_id)
        .route(route)
        .client_key(retry)
        .build()
        .map_err(|_| kestrel::Status::BAD_REQUEST)?;
    kv.get(key.storage_key()).await.map_err(|_| kestrel::Status::SERVICE_UNAVAILABLE)
}
