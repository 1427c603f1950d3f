use gloo_net::http::Request;

use crate::ui::{CheckoutForm, Toast};

/// Browser side of checkout: the page mints one key per attempt and the
/// backend scopes it; retries after a network error reuse it.
pub struct CheckoutClient {
    api_base: String,
    attempt_key: String,
}

impl CheckoutClient {
    pub fn new(api_base: &str, attempt_key: String) -> Self {
        CheckoutClient { api_base: api_base.to_owned(), attempt_key }
    }

    pub async fn submit(&self, form: &CheckoutForm, tries: u32) -> Result<String, String> {
        let url = format!("{}/v1/checkout", self.api_base);
        let mut last = String::new();
        for attempt in 0..tries {
            let trace = format!("{}-{}", self.attempt_key, attempt);
            let resp = Request::post(&url)
                .header("Idempotency-Key", &self.attempt_key)
                .header("X-Client-Trace", &trace)
                .json(form)
                .map_err(|e| e.to_string())?
                .send()
                .await;
            match resp {
                Ok(r) if r.ok() => return r.text().await.map_err(|e| e.to_string()),
                Ok(r) if r.status() == 409 => last = "checkout still running".to_owned(),
                Ok(r) => return Err(format!("checkout failed with {}", r.status())),
                Err(e) => last = e.to_string(),
            }
        }
        Err(last)
    }

    pub async fn resend_receipt(&self, order_event_id: &str) {
        let url = format!("{}/v1/receipts/resend", self.api_base);
        let sent = Request::post(&url).header("Idempotency-Key", order_event_id).send().await;
        if sent.is_err() {
            Toast::error("could not resend the receipt");
        }
    }
}
