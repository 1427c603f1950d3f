use std::sync::Arc;

use idem_scope::{scoped, ClaimGuard, Claimed, Fingerprint, StoredResponse};
use rocket::http::Status;
use rocket::State;

use crate::guards::{IdempotencyKey, MerchantUser};
use crate::psp::Psp;
use crate::store::PgStore;

#[rocket::post("/v1/payments/<payment_id>/capture", data = "<body>")]
pub async fn capture(
    payment_id: &str,
    user: MerchantUser,
    idem: IdempotencyKey,
    body: Vec<u8>,
    store: &State<Arc<PgStore>>,
    psp: &State<Psp>,
) -> Result<(Status, Vec<u8>), Status> {
    let key = scoped(&user.merchant_id, &user.api_key_id, "payment.capture", idem.as_str())
        .map_err(|_| Status::BadRequest)?;
    let fp = Fingerprint::of("payment.capture", &body);

    match store.claim(&key, &fp).await.map_err(|_| Status::ServiceUnavailable)? {
        Claimed::New => {}
        Claimed::Existing(_, Some(prev)) => return Ok((Status::new(prev.status), prev.body)),
        Claimed::Existing(_, None) => return Err(Status::Conflict),
    }

    let guard = {
        let store = Arc::clone(store.inner());
        let key = key.clone();
        ClaimGuard::new(move || {
            tokio::spawn(async move {
                if let Err(e) = store.release(&key).await {
                    tracing::warn!(error = %e, "release after failed capture");
                }
            });
        })
    };

    let amount: i64 = std::str::from_utf8(&body)
        .map_err(|_| Status::BadRequest)?
        .trim()
        .parse()
        .map_err(|_| Status::BadRequest)?;
    let captured = psp
        .capture(&user.merchant_id, payment_id, amount)
        .await
        .map_err(|_| Status::BadGateway)?;

    let rendered = serde_json::to_vec(&captured).map_err(|_| Status::InternalServerError)?;
    let stored = StoredResponse { status: 200, headers: Vec::new(), body: rendered.clone() };
    store.complete(&key, &stored).await.map_err(|_| Status::ServiceUnavailable)?;
    guard.complete();
    Ok((Status::Ok, rendered))
}
