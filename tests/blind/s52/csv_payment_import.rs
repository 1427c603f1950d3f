use std::collections::HashMap;

use actix_multipart::Multipart;
use actix_web::{error, post, web, HttpRequest, HttpResponse};
use futures_util::TryStreamExt;
use idem_scope::{scoped, ScopedKey};
use serde::Deserialize;
use uuid::Uuid;

use crate::auth::OpsUser;
use crate::payments::{PaymentDesk, PaymentDraft};
use crate::store::PaymentReplays;

#[derive(Debug, Deserialize)]
struct ImportRow {
    reference: Option<String>,
    beneficiary: String,
    amount_minor: i64,
    currency: String,
}

#[post("/v1/payments")]
pub async fn create_payment(
    req: HttpRequest,
    user: OpsUser,
    draft: web::Json<PaymentDraft>,
    replays: web::Data<PaymentReplays>,
    desk: web::Data<PaymentDesk>,
) -> actix_web::Result<HttpResponse> {
    let idem = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| error::ErrorBadRequest("key"))?;
    let key = scoped(&user.tenant_id, &user.user_id, "payment.create", idem).map_err(error::ErrorBadRequest)?;
    if let Some(prev) = replays.get(&key).await.map_err(error::ErrorServiceUnavailable)? {
        return Ok(HttpResponse::Ok().json(prev));
    }
    let payment = desk.create(&user.tenant_id, draft.into_inner()).await.map_err(error::ErrorUnprocessableEntity)?;
    replays.put(&key, &payment).await.map_err(error::ErrorServiceUnavailable)?;
    Ok(HttpResponse::Created().json(payment))
}

#[post("/v1/payments/import")]
pub async fn import_payments(
    user: OpsUser,
    mut payload: Multipart,
    replays: web::Data<PaymentReplays>,
    desk: web::Data<PaymentDesk>,
) -> actix_web::Result<HttpResponse> {
    let mut raw = Vec::new();
    while let Some(mut field) = payload.try_next().await? {
        while let Some(chunk) = field.try_next().await? {
            raw.extend_from_slice(&chunk);
        }
    }
    let rows: Vec<ImportRow> = csv::Reader::from_reader(raw.as_slice())
        .deserialize()
        .collect::<Result<_, _>>()
        .map_err(error::ErrorBadRequest)?;

    let keyed: Vec<(ScopedKey, ImportRow)> = rows
        .into_iter()
        .map(|row| Ok((scoped(&user.tenant_id, &user.user_id, "payment.create", &row.reference.clone().unwrap_or_else(|| Uuid::new_v4().to_string()))?, row)))
        .collect::<Result<_, idem_scope::ScopeError>>()
        .map_err(error::ErrorBadRequest)?;

    let mut results = HashMap::new();
    for (key, row) in keyed {
        if let Some(prev) = replays.get(&key).await.map_err(error::ErrorServiceUnavailable)? {
            results.insert(row.beneficiary.clone(), prev);
            continue;
        }
        let draft = PaymentDraft::new(&row.beneficiary, row.amount_minor, &row.currency);
        let payment = desk.create(&user.tenant_id, draft).await.map_err(error::ErrorUnprocessableEntity)?;
        replays.put(&key, &payment).await.map_err(error::ErrorServiceUnavailable)?;
        results.insert(row.beneficiary.clone(), payment);
    }
    Ok(HttpResponse::Ok().json(results))
}
