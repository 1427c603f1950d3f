use ngx::core::Status;
use ngx::ffi::ngx_http_request_t;
use ngx::http::{HTTPStatus, Request};
use ngx::{http_request_handler, ngx_log_debug_http};

/// nginx access-phase module in front of the payments API: it checks the
/// Idempotency-Key header and forwards it, but stores nothing itself.
const KEY_HEADER: &str = "Idempotency-Key";
const MAX_KEY_LEN: usize = 255;

fn find_header<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
    request
        .headers_in_iterator()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

fn is_mutating(request: &Request) -> bool {
    matches!(request.method().as_str(), "POST" | "PUT" | "PATCH" | "DELETE")
}

http_request_handler!(key_guard_access_handler, |request: &mut Request| {
    if !is_mutating(request) {
        return Status::NGX_DECLINED;
    }
    let Some(key) = find_header(request, KEY_HEADER).map(str::to_owned) else {
        return HTTPStatus::BAD_REQUEST.into();
    };
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return HTTPStatus::BAD_REQUEST.into();
    }
    if key.contains([':', '|', '\0', '\u{1e}']) {
        return HTTPStatus::BAD_REQUEST.into();
    }
    let note = format!("idempotent request {} {}", request.method().as_str(), key);
    ngx_log_debug_http!(request, "{}", note);
    if request.add_header_in("X-Edge-Idempotency-Key", &key).is_none() {
        return HTTPStatus::INTERNAL_SERVER_ERROR.into();
    }
    Status::NGX_DECLINED
});

#[no_mangle]
pub extern "C" fn key_guard_init(r: *mut ngx_http_request_t) -> isize {
    unsafe { key_guard_access_handler(r) }
}

pub fn header_name() -> &'static str {
    KEY_HEADER
}

pub fn max_key_len() -> usize {
    MAX_KEY_LEN
}
