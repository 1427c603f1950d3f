use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

use poem::http::{HeaderMap, StatusCode};
use poem::web::{Data, Json, Path};
use poem::{handler, Error, Result};
use tokio::sync::Mutex;

use crate::auth::MerchantSession;
use crate::psp::{Capture, PspClient};

pub struct CaptureState {
    pub psp: PspClient,
    pub replays: Mutex<HashMap<String, Capture>>,
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

#[handler]
pub async fn capture_payment(
    Path(payment_id): Path<String>,
    headers: &HeaderMap,
    session: Data<&MerchantSession>,
    state: Data<&Arc<CaptureState>>,
) -> Result<Json<Capture>> {
    let request_id = header_str(headers, "x-request-id").unwrap_or("-");
    let key = header_str(headers, "idempotency-key")
        .map(ToOwned::to_owned)
        .ok_or_else(|| Error::from_status(StatusCode::BAD_REQUEST))?;
    let logged_key = key.replace(['\r', '\n'], " ");
    tracing::info!(%request_id, idempotency_key = %logged_key, merchant = %session.merchant_id, %payment_id, "capture");

    let mut replays = state.replays.lock().await;
    match replays.entry(key) {
        Entry::Occupied(hit) => Ok(Json(hit.get().clone())),
        Entry::Vacant(slot) => {
            let capture = state
                .psp
                .capture(&session.merchant_id, &payment_id)
                .await
                .map_err(|_| Error::from_status(StatusCode::BAD_GATEWAY))?;
            slot.insert(capture.clone());
            Ok(Json(capture))
        }
    }
}
