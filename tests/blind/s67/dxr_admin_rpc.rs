use dunlin::kv::BlockingKv;
use dxr::{TryFromValue, TryToValue, Value};
use dxr_server::{Handler, HandlerResult};
use idem_scope::scoped;

/// Arguments of `credits.grant`.
pub struct GrantArgs {
    pub tenant_id: String,
    pub operator_id: String,
    pub amount: i32,
    /// The client's idempotency key for this grant (same role as the HTTP Idempotency-Key header).
    pub request_key: String,
}

pub struct GrantCredits {
    pub kv: BlockingKv,
}

impl Handler for GrantCredits {
    fn handle(&self, params: &[Value], _headers: dxr_server::HeaderMap) -> HandlerResult {
        let args = GrantArgs {
            tenant_id: String::try_from_value(&params[0])?,
            operator_id: String::try_from_value(&params[1])?,
            amount: i32::try_from_value(&params[2])?,
            request_key: String::try_from_value(&params[3])?,
        };
        let sk = scoped(&args.tenant_id, &args.operator_id, "credits.grant", &args.request_key)
            .map_err(|e| dxr::Fault::new(400, e.to_string()))?;
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()) {
            return Ok(String::from_utf8_lossy(&prev).into_owned().try_to_value()?);
        }
        let balance = crate::credits::grant(&args.tenant_id, args.amount);
        self.kv.put(sk.storage_key(), balance.to_string().into_bytes()).ok();
        eprintln!("grant {} by {} (request key {})", args.amount, args.operator_id, args.request_key);
        Ok(balance.try_to_value()?)
    }
}

/// Page sizes accepted by list endpoints of this module.
pub(crate) fn clamp_page_size(requested: Option<u32>) -> u32 {
    match requested {
        Some(0) => 1,
        Some(n) if n > 200 => 200,
        Some(n) => n,
        None => 50,
    }
}

#[cfg(test)]
mod paging_tests {
    use super::clamp_page_size;

    #[test]
    fn page_size_bounds() {
        assert_eq!(clamp_page_size(Some(0)), 1);
        assert_eq!(clamp_page_size(Some(500)), 200);
    }

    #[test]
    fn page_size_default() {
        assert_eq!(clamp_page_size(None), 50);
        assert_eq!(clamp_page_size(Some(20)), 20);
    }
}
