//! RFC 9457 problem details for the idempotency error responses.

use serde_json::{Map, Value};

use crate::HeaderError;

/// `Content-Type` of every [`Problem`] body.
pub const PROBLEM_CONTENT_TYPE: &str = "application/problem+json";

/// Default `Retry-After` of a 409, in seconds.
pub const DEFAULT_RETRY_AFTER_SECS: u64 = 1;

/// An `application/problem+json` error (RFC 9457) for the cases the
/// Idempotency-Key draft defines: 400 (missing or invalid key), 409 (the
/// original request is still in progress) and 422 (key reused with another
/// payload).
///
/// A body only ever echoes the caller's own key: never the tenant, the
/// principal, nor anything stored under the key (which, before scoping, might
/// have been another caller's).
///
/// ```
/// use idem_scope::{Problem, PROBLEM_CONTENT_TYPE};
///
/// let p = Problem::in_progress("8e03978e");
/// assert_eq!(p.status(), 409);
/// assert_eq!(p.retry_after(), Some(1));
/// let body: serde_json::Value = serde_json::from_str(&p.to_json()).unwrap();
/// assert_eq!(body["status"], 409);
/// assert_eq!(body["idempotency_key"], "8e03978e");
/// assert_eq!(PROBLEM_CONTENT_TYPE, "application/problem+json");
///
/// assert_eq!(Problem::mismatch("k").status(), 422);
/// assert_eq!(Problem::missing_key().status(), 400);
/// assert_eq!(Problem::invalid_key("found a token").status(), 400);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    status: u16,
    type_uri: String,
    title: &'static str,
    detail: String,
    key: Option<String>,
    retry_after: Option<u64>,
}

impl Problem {
    fn new(status: u16, slug: &str, title: &'static str, detail: String) -> Self {
        Problem {
            status,
            type_uri: format!("tag:idem-scope,2026:problem:{slug}"),
            title,
            detail,
            key: None,
            retry_after: None,
        }
    }

    /// 400: the request has no `Idempotency-Key` but the endpoint requires one.
    pub fn missing_key() -> Self {
        Problem::new(
            400,
            "missing-key",
            "Idempotency-Key is missing",
            "This operation requires an Idempotency-Key header.".to_owned(),
        )
    }

    /// 400: the key is malformed; `reason` is shown as the detail (e.g. a
    /// [`HeaderError`]'s text).
    pub fn invalid_key(reason: &str) -> Self {
        Problem::new(
            400,
            "invalid-key",
            "Idempotency-Key is invalid",
            reason.to_owned(),
        )
    }

    /// 400 for a header error: [`Problem::missing_key`] for
    /// [`HeaderError::Missing`], [`Problem::invalid_key`] otherwise.
    pub fn from_header_error(err: &HeaderError) -> Self {
        match err {
            HeaderError::Missing => Problem::missing_key(),
            other => Problem::invalid_key(&other.to_string()),
        }
    }

    /// 409: a request with this key is still being processed; retry after
    /// [`Problem::retry_after`] seconds.
    pub fn in_progress(key: &str) -> Self {
        let mut p = Problem::new(
            409,
            "in-progress",
            "A request with this Idempotency-Key is in progress",
            "The original request has not finished yet; retry later.".to_owned(),
        );
        p.key = Some(key.to_owned());
        p.retry_after = Some(DEFAULT_RETRY_AFTER_SECS);
        p
    }

    /// 422: the key was already used with a different request payload.
    pub fn mismatch(key: &str) -> Self {
        let mut p = Problem::new(
            422,
            "key-reused",
            "Idempotency-Key reused with a different payload",
            "This key was already used for a different request; use a new key for a new request."
                .to_owned(),
        );
        p.key = Some(key.to_owned());
        p
    }

    /// 401: the caller's identity (tenant or principal) could not be
    /// established, so the request has no scope. A scope resolver returns it
    /// instead of falling back to a shared, global scope.
    pub fn unauthenticated(detail: &str) -> Self {
        Problem::new(
            401,
            "unauthenticated",
            "No identity to scope the key by",
            detail.to_owned(),
        )
    }

    /// 413: the body is larger than the layer buffers to fingerprint it.
    pub fn payload_too_large(max_bytes: usize) -> Self {
        Problem::new(
            413,
            "payload-too-large",
            "Request body too large",
            format!("An idempotent request body may have at most {max_bytes} bytes."),
        )
    }

    /// 503: the idempotency store could not be reached; nothing was executed.
    pub fn store_unavailable() -> Self {
        let mut p = Problem::new(
            503,
            "store-unavailable",
            "Idempotency store unavailable",
            "The request was not executed; retry with the same key.".to_owned(),
        );
        p.retry_after = Some(DEFAULT_RETRY_AFTER_SECS);
        p
    }

    /// 500: the handler's response could not be read; the claim was released.
    pub fn response_failed() -> Self {
        Problem::new(
            500,
            "response-failed",
            "The response could not be produced",
            "The handler's response body failed; retry with the same key.".to_owned(),
        )
    }

    /// Overrides the `Retry-After` seconds (only meaningful on a 409).
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs);
        self
    }

    /// Replaces the default type (a non-resolvable RFC 4151 `tag:` URI,
    /// `tag:idem-scope,2026:problem:<slug>`) with your own
    /// documentation URI.
    pub fn with_type(mut self, type_uri: &str) -> Self {
        self.type_uri = type_uri.to_owned();
        self
    }

    /// The HTTP status code.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Seconds for the `Retry-After` header, set on a 409.
    pub fn retry_after(&self) -> Option<u64> {
        self.retry_after
    }

    /// The body: `type`, `title`, `status`, `detail` and, for 409/422, the
    /// caller's own `idempotency_key`.
    pub fn to_json(&self) -> String {
        let mut body = Map::new();
        body.insert("type".into(), Value::from(self.type_uri.as_str()));
        body.insert("title".into(), Value::from(self.title));
        body.insert("status".into(), Value::from(self.status));
        body.insert("detail".into(), Value::from(self.detail.as_str()));
        if let Some(key) = &self.key {
            body.insert("idempotency_key".into(), Value::from(key.as_str()));
        }
        Value::Object(body).to_string()
    }

    /// A complete response: status, `Content-Type`, `Retry-After` and body.
    #[cfg(feature = "http")]
    pub fn to_response(&self) -> http::Response<String> {
        let mut res = http::Response::new(self.to_json());
        *res.status_mut() = http::StatusCode::from_u16(self.status)
            .unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
        let headers = res.headers_mut();
        headers.insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static(PROBLEM_CONTENT_TYPE),
        );
        if let Some(secs) = self.retry_after {
            headers.insert(http::header::RETRY_AFTER, http::HeaderValue::from(secs));
        }
        res
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.title, self.detail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(p: &Problem) -> Value {
        serde_json::from_str(&p.to_json()).unwrap()
    }

    #[test]
    fn bodies_have_rfc9457_members_and_only_the_callers_key() {
        for (p, status, key) in [
            (Problem::missing_key(), 400, None),
            (Problem::invalid_key("bad \"quote\""), 400, None),
            (Problem::in_progress("k\"1"), 409, Some("k\"1")),
            (Problem::mismatch("k2"), 422, Some("k2")),
        ] {
            let v = json(&p);
            let obj = v.as_object().unwrap();
            assert_eq!(obj["status"], status);
            assert!(obj["type"]
                .as_str()
                .unwrap()
                .starts_with("tag:idem-scope,2026:problem:"));
            assert!(obj["title"].is_string() && obj["detail"].is_string());
            assert_eq!(obj.get("idempotency_key").and_then(Value::as_str), key);
            let allowed = ["type", "title", "status", "detail", "idempotency_key"];
            assert!(obj.keys().all(|k| allowed.contains(&k.as_str())), "{obj:?}");
        }
        assert_eq!(
            json(&Problem::invalid_key("bad \"quote\""))["detail"],
            "bad \"quote\""
        );
    }

    #[test]
    fn retry_after_only_on_409() {
        assert_eq!(
            Problem::in_progress("k").with_retry_after(7).retry_after(),
            Some(7)
        );
        assert_eq!(Problem::mismatch("k").retry_after(), None);
        assert_eq!(Problem::missing_key().retry_after(), None);
    }

    #[test]
    fn header_errors_map_to_400s() {
        assert_eq!(
            Problem::from_header_error(&HeaderError::Missing),
            Problem::missing_key()
        );
        let p = Problem::from_header_error(&HeaderError::Empty);
        assert_eq!(
            (p.status(), json(&p)["detail"].clone()),
            (400, Value::from(HeaderError::Empty.to_string()))
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn http_response_carries_headers() {
        let res = Problem::in_progress("k").with_retry_after(3).to_response();
        assert_eq!(res.status(), 409);
        assert_eq!(
            res.headers()[http::header::CONTENT_TYPE],
            PROBLEM_CONTENT_TYPE
        );
        assert_eq!(res.headers()[http::header::RETRY_AFTER], "3");
        assert_eq!(
            Problem::mismatch("k")
                .with_type("https://example.com/p")
                .to_response()
                .status(),
            422
        );
    }
}
