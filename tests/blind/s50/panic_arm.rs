//! Shipment label purchase (temporal activity wrapping a carrier API via surf).
use idem_scope::scoped;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Deserialize)]
pub struct LabelInput {
    pub org_id: String,
    pub user_id: String,
    /// Idempotency-Key supplied by the client that started the workflow.
    #[serde(rename = "Idempotency-Key")]
    pub idempotency_key: String,
    pub carrier: String,
    pub parcel_grams: u32,
}

#[derive(Default)]
pub struct LabelLedger {
    state: Mutex<HashMap<String, Option<String>>>,
}

impl LabelLedger {
    fn mark_in_progress(&self, key: &str) -> bool {
        self.state.lock().unwrap().insert(key.to_owned(), None).is_none()
    }
    fn mark_completed(&self, key: &str, label: String) {
        self.state.lock().unwrap().insert(key.to_owned(), Some(label));
    }
    fn abandon(&self, key: &str) {
        self.state.lock().unwrap().remove(key);
    }
}

pub async fn buy_label(ledger: &LabelLedger, input: LabelInput) -> Result<String, surf::Error> {
    let key = scoped(&input.org_id, &input.user_id, "labels.buy", &input.idempotency_key)
        .map_err(|e| surf::Error::from_str(400, e.to_string()))?;
    if !ledger.mark_in_progress(key.storage_key()) {
        return Err(surf::Error::from_str(409, "label purchase in progress"));
    }
    let url = match input.carrier.as_str() {
        "dhl" => "https://carrier.example/dhl/labels",
        "ups" => "https://carrier.example/ups/labels",
        other => unreachable!("carrier {other} is validated by the workflow"),
    };
    let label = surf::post(url).body_json(&serde_json::json!({ "grams": input.parcel_grams }))?.recv_string().await?;
    ledger.mark_completed(key.storage_key(), label.clone());
    Ok(label)
}

pub async fn void_label(ledger: &LabelLedger, input: LabelInput, label_id: &str) -> Result<String, surf::Error> {
    let key = scoped(&input.org_id, &input.user_id, "labels.void", &input.idempotency_key)
        .map_err(|e| surf::Error::from_str(400, e.to_string()))?;
    if !ledger.mark_in_progress(key.storage_key()) {
        return Err(surf::Error::from_str(409, "void in progress"));
    }
    let resp = surf::delete(format!("https://carrier.example/labels/{label_id}")).recv_string().await;
    match resp {
        Ok(body) => {
            ledger.mark_completed(key.storage_key(), body.clone());
            Ok(body)
        }
        Err(e) => {
            ledger.abandon(key.storage_key());
            Err(e)
        }
    }
}
