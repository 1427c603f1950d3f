use std::fmt::Write as _;

use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, ContextType, LogLevel};

const IDEMPOTENCY_HEADER: &str = "idempotency-key";
// Both identity headers are written by the ext_authz filter in front of us.
const TENANT_HEADER: &str = "x-auth-tenant-id";
const SUBJECT_HEADER: &str = "x-auth-subject";

proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|_| -> Box<dyn RootContext> { Box::new(DedupRoot) });
}}

struct DedupRoot;

impl Context for DedupRoot {}

impl RootContext for DedupRoot {
    fn create_http_context(&self, context_id: u32) -> Option<Box<dyn HttpContext>> {
        Some(Box::new(DedupFilter { context_id, cache_key: None }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}

struct DedupFilter {
    context_id: u32,
    cache_key: Option<String>,
}

impl Context for DedupFilter {}

impl DedupFilter {
    fn lookup(&self, key: &str) -> Option<Vec<u8>> {
        let (data, _cas) = self.get_shared_data(key);
        data
    }

    fn save(&self, key: &str, body: &[u8]) {
        if let Err(status) = self.set_shared_data(key, Some(body), None) {
            log::warn!("ctx {}: shared data write failed: {:?}", self.context_id, status);
        }
    }
}

impl HttpContext for DedupFilter {
    fn on_http_request_headers(&mut self, _num_headers: usize, _end_of_stream: bool) -> Action {
        if self.get_http_request_header(":method").as_deref() != Some("POST") {
            return Action::Continue;
        }
        let Some(client_key) = self.get_http_request_header(IDEMPOTENCY_HEADER) else {
            return Action::Continue;
        };
        let (Some(tenant_id), Some(sub)) = (
            self.get_http_request_header(TENANT_HEADER),
            self.get_http_request_header(SUBJECT_HEADER),
        ) else {
            self.send_http_response(401, vec![("content-type", "text/plain")], Some(b"identity required"));
            return Action::Pause;
        };
        let Some(route) = self.get_http_request_header(":path") else {
            return Action::Continue;
        };

        let cluster = self
            .get_property(vec!["cluster_name"])
            .and_then(|raw| String::from_utf8(raw).ok())
            .unwrap_or_else(|| "default".to_string());
        log::debug!("dedup lookup on cluster {} for {}", cluster, route);

        let mut key = String::with_capacity(160);
        let _ = write!(key, "dedup|{}|{}|{}|{}", tenant_id, sub, route, client_key);

        if let Some(cached) = self.lookup(&key) {
            self.send_http_response(200, vec![("idempotent-replayed", "true")], Some(&cached));
            return Action::Pause;
        }
        self.set_http_request_header("x-dedup-forwarded-key", Some(&client_key));
        self.cache_key = Some(key);
        Action::Continue
    }

    fn on_http_response_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        if !end_of_stream {
            return Action::Pause;
        }
        let status = self.get_http_response_header(":status").unwrap_or_default();
        if let (Some(key), true) = (self.cache_key.take(), status.starts_with('2')) {
            if let Some(body) = self.get_http_response_body(0, body_size) {
                self.save(&key, &body);
            }
        }
        Action::Continue
    }
}
