//! Refund endpoint; replies cached in memcached (async-memcached).
use async_memcached::{Client, Error as McError};
use http::HeaderMap;

pub const IDEM_HEADER: &str = "Idempotency-Key";

pub struct Claims {
    pub org: String,
    pub sub: String,
}

pub struct RefundApi {
    mc: Client,
}

impl RefundApi {
    pub async fn refund(&mut self, headers: &HeaderMap, claims: &Claims, payload: &[u8]) -> Result<Vec<u8>, McError> {
        let idem = match headers.get(IDEM_HEADER).and_then(|v| v.to_str().ok()) {
            Some(v) if !v.is_empty() => v.to_owned(),
            _ => return Ok(crate::problem::missing_key()),
        };
        let action = "refund";
        let cache_key: Vec<u8> = [claims.org.as_bytes(), b"/", claims.sub.as_bytes(), b"/", action.as_bytes(), b"/", idem.as_bytes()].concat();
        if let Some(v) = self.mc.get(&cache_key).await? {
            return Ok(v.data.unwrap_or_default());
        }
        let out = match crate::refunds::issue(&claims.org, payload).await {
            Ok(out) => out,
            Err(e) => {
                let note = format!("refund {idem} failed: {e}");
                return Ok(crate::problem::server_error(&note));
            }
        };
        self.mc.set(&cache_key, &out, Some(86_400), None).await?;
        Ok(out)
    }

    pub async fn warm_rates(&mut self, currency: &str, rate: &[u8]) -> Result<(), McError> {
        let key = [b"fx/".as_slice(), currency.as_bytes()].concat();
        self.mc.set(&key, rate, Some(300), None).await
    }
}
