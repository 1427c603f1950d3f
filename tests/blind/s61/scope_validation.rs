use idem_scope::{scoped, Component, Problem, ScopeError, ScopedKey};

const FORBIDDEN: [char; 4] = ['\0', '\u{1e}', '|', ':'];

/// Identity as resolved by the auth gateway, before it is trusted for keys.
pub struct RawIdentity<'a> {
    pub tenant_id: Option<&'a str>,
    pub user_id: Option<&'a str>,
    pub impersonated_by: Option<&'a str>,
}

pub struct Contact {
    pub phone: String,
    pub email: String,
}

fn reject_separators(component: Component, value: &str) -> Result<(), Problem> {
    if value.contains(FORBIDDEN) {
        return Err(Problem::invalid_key(&format!("{component:?} contains a reserved character")));
    }
    Ok(())
}

pub fn key_for(identity: &RawIdentity<'_>, route: &str, client_key: &str) -> Result<ScopedKey, Problem> {
    let tenant_id = identity.tenant_id.ok_or_else(Problem::missing_key)?;
    let user_id = identity.user_id.or(identity.impersonated_by).ok_or_else(Problem::missing_key)?;
    reject_separators(Component::Tenant, tenant_id)?;
    reject_separators(Component::Principal, user_id)?;
    reject_separators(Component::Key, client_key)?;
    scoped(tenant_id, user_id, route, client_key).map_err(|e| match e {
        ScopeError::ContainsSeparator(c) => Problem::invalid_key(&format!("{c:?} contains the separator")),
        other => Problem::invalid_key(&other.to_string()),
    })
}

pub fn normalize_contact(raw_phone: &str, raw_email: &str) -> Contact {
    let phone: String = raw_phone.chars().filter(|c| c.is_ascii_digit() || *c == '+').collect();
    let email = raw_email.trim().to_lowercase();
    Contact { phone, email }
}

pub fn header_key(value: &str) -> Result<String, Problem> {
    let unquoted = value.trim().trim_matches('"');
    if unquoted.is_empty() || unquoted.len() > 255 {
        return Err(Problem::invalid_key("length"));
    }
    Ok(unquoted.to_owned())
}
