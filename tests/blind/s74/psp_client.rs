//! Outbound client for the card PSP and other partner HTTP APIs.

use stirrup::dial::{Dialer, HeaderBag, RequestBuilder};
use stirrup::Inbound;

#[derive(Clone)]
pub struct OutboundHttp {
    dialer: Dialer,
}

impl OutboundHttp {
    pub fn new(dialer: Dialer) -> Self {
        OutboundHttp { dialer }
    }

    pub fn post_json(&self, url: &str, body: &serde_json::Value) -> RequestBuilder {
        self.dialer.post(url).json(body)
    }
}

pub struct PspClient {
    http: OutboundHttp,
    base: String,
    merchant: String,
}

impl PspClient {
    /// Charges a terminal. The desk's own key is forwarded so the PSP dedupes
    /// the charge on its side too.
    pub async fn charge(&self, terminal_id: &str, amount_cents: i64, idempotency_key: &str) -> Result<crate::billing::Receipt, crate::billing::PspError> {
        let url = format!("{}/v2/terminals/{}/checkouts", self.base, terminal_id);
        let mut headers = HeaderBag::new();
        headers.insert("Idempotency-Key", idempotency_key);
        headers.insert("X-Merchant", &self.merchant);
        let body = serde_json::json!({ "amount": amount_cents, "currency": "USD" });
        let resp = self.http.post_json(&url, &body).headers(headers).send().await?;
        resp.json().await.map_err(Into::into)
    }

    pub async fn charge_card(&self, token: &str, amount_cents: i64, currency: &str, note: &str, idempotency_key: &str) -> Result<crate::billing::Receipt, crate::billing::PspError> {
        let url = format!("{}/v2/payments", self.base);
        let body = serde_json::json!({ "source": token, "amount": amount_cents, "currency": currency, "note": note });
        let resp = self
            .http
            .post_json(&url, &body)
            .header("Idempotency-Key", idempotency_key)
            .send()
            .await?;
        resp.json().await.map_err(Into::into)
    }
}

/// Correlates our logs with the PSP's: the inbound request id is logged and
/// passed along, never stored.
pub fn trace_request(inb: &Inbound) {
    if let Some(request_id) = inb.header("X-Request-Id") {
        tracing::info!(request_id, route = inb.route_id(), "psp call");
    }
}
