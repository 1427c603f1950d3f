//! Feature-flag writes from the admin CLI and the HTTP API share one handler.
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::BTreeMap;
use std::sync::{OnceLock, RwLock};

const GLOBAL_TENANT: &str = "global";
const DEFAULT_REGION: &str = "eu-west-1";

static FLAG_WRITES: OnceLock<RwLock<BTreeMap<String, String>>> = OnceLock::new();

fn flag_writes() -> &'static RwLock<BTreeMap<String, String>> {
    FLAG_WRITES.get_or_init(Default::default)
}

pub struct Caller {
    pub tenant_id: Option<String>,
    pub caller_id: String,
    pub region: Option<String>,
}

pub fn set_flag(caller: &Caller, headers: &HeaderMap, flag: &str, on: bool) -> Result<String, String> {
    let k = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
    let tenant = caller.tenant_id.as_deref().unwrap_or(GLOBAL_TENANT);
    let region = caller.region.as_deref().unwrap_or(DEFAULT_REGION);
    let key = scoped(tenant, &caller.caller_id, "flags.set", k).map_err(|e| e.to_string())?;
    let mut w = flag_writes().write().unwrap();
    if let Some(prev) = w.get(key.storage_key()) {
        return Ok(prev.clone());
    }
    let out = format!("{{\"flag\":\"{flag}\",\"on\":{on},\"region\":\"{region}\"}}");
    w.insert(key.storage_key().to_owned(), out.clone());
    Ok(out)
}
