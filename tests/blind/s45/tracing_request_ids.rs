//! Request-id propagation for the hand-rolled HTTP server; ids are for tracing only.

use std::fmt::Write as _;

use uuid::Uuid;

pub struct RequestSpan {
    pub request_id: String,
    pub started: std::time::Instant,
}

pub fn begin_span(headers: &[(String, String)], method: &str, path: &str) -> RequestSpan {
    let request_id = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("X-Request-Id"))
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| Uuid::new_v4().to_string());
    tracing::info!(request_id = %request_id, %method, %path, "request started");
    RequestSpan { request_id, started: std::time::Instant::now() }
}

pub fn finish_span(span: &RequestSpan, status: u16, out: &mut Vec<(String, String)>) {
    let mut line = String::new();
    let _ = write!(line, "{} finished {} in {:?}", span.request_id, status, span.started.elapsed());
    tracing::info!("{line}");
    out.push(("X-Request-Id".to_owned(), span.request_id.clone()));
}

pub fn error_body(span: &RequestSpan, idempotency_key: Option<&str>, reason: &str) -> String {
    match idempotency_key {
        Some(k) => format!("{{\"error\":\"{reason}\",\"request_id\":\"{}\",\"idempotency_key\":\"{k}\"}}", span.request_id),
        None => format!("{{\"error\":\"{reason}\",\"request_id\":\"{}\"}}", span.request_id),
    }
}
