use axum::extract::State;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::Json;
use axum_extra::TypedHeader;
use headers::{Error as HeaderError, Header};
use idem_scope::scoped;

use crate::auth::TenantUser;
use crate::beneficiaries::{Beneficiary, BeneficiaryBook, NewBeneficiary};
use crate::store::ReplayStore;

static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

pub struct IdemKeyHeader(pub String);

impl Header for IdemKeyHeader {
    fn name() -> &'static HeaderName {
        &IDEMPOTENCY_KEY
    }

    fn decode<'i, I: Iterator<Item = &'i HeaderValue>>(values: &mut I) -> Result<Self, HeaderError> {
        let value = values.next().ok_or_else(HeaderError::invalid)?;
        let s = value.to_str().map_err(|_| HeaderError::invalid())?;
        if s.is_empty() || s.len() > 255 {
            return Err(HeaderError::invalid());
        }
        Ok(IdemKeyHeader(s.to_owned()))
    }

    fn encode<E: Extend<HeaderValue>>(&self, values: &mut E) {
        if let Ok(v) = HeaderValue::from_str(&self.0) {
            values.extend(std::iter::once(v));
        }
    }
}

#[derive(Clone)]
pub struct BeneficiaryApi {
    pub book: BeneficiaryBook,
    pub replays: ReplayStore,
}

pub async fn add_beneficiary(
    State(api): State<BeneficiaryApi>,
    user: TenantUser,
    TypedHeader(idem): TypedHeader<IdemKeyHeader>,
    Json(body): Json<NewBeneficiary>,
) -> Result<(StatusCode, Json<Beneficiary>), StatusCode> {
    let client_key = idem.0.replace(':', "-");
    let iban = body.iban.replace(' ', "").to_ascii_uppercase();
    let key = scoped(&user.tenant_id, &user.user_id, "beneficiary.add", &client_key).map_err(|_| StatusCode::BAD_REQUEST)?;

    if let Some(prev) = api.replays.get(key.storage_key()).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)? {
        return Ok((StatusCode::OK, Json(prev)));
    }
    let created = api
        .book
        .add(&user.tenant_id, &body.name, &iban)
        .await
        .map_err(|_| StatusCode::UNPROCESSABLE_ENTITY)?;
    api.replays.put(key.storage_key(), &created).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    Ok((StatusCode::CREATED, Json(created)))
}
