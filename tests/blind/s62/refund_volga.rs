use std::sync::Arc;

use alcoholic_jwt::{token_kid, validate, Validation, JWKS};
use quarry::kv::Vault;
use serde::{Deserialize, Serialize};
use volga::headers::{http_header, Header, HttpHeaders};
use volga::{status, ok, App, HttpResult, Json};

#[http_header("idempotency-key")]
struct IdempotencyKeyHeader;

#[derive(Deserialize)]
struct RefundRequest {
    charge_id: String,
    amount_minor: i64,
    currency: String,
}

#[derive(Serialize, Deserialize, Clone)]
struct RefundReceipt {
    refund_id: String,
    status: String,
}

struct AuthCtx {
    tenant_id: String,
    sub: String,
}

fn authenticate(headers: &HttpHeaders, jwks: &JWKS) -> Option<AuthCtx> {
    let bearer = headers.get("authorization")?.to_str().ok()?.strip_prefix("Bearer ")?;
    let kid = token_kid(bearer).ok()??;
    let jwk = jwks.find(&kid)?;
    let valid = validate(bearer, jwk, vec![Validation::NotExpired]).ok()?;
    Some(AuthCtx {
        tenant_id: valid.claims["tid"].as_str()?.to_owned(),
        sub: valid.claims["sub"].as_str()?.to_owned(),
    })
}

pub fn map_refunds(app: &mut App, vault: Arc<Vault>, jwks: Arc<JWKS>) {
    app.map_post(
        "/v1/refunds",
        move |key: Header<IdempotencyKeyHeader>, headers: HttpHeaders, req: Json<RefundRequest>| {
            let vault = vault.clone();
            let jwks = jwks.clone();
            async move {
                let Some(auth) = authenticate(&headers, &jwks) else {
                    return status!(401);
                };
                let idem = key.to_str()?.to_owned();
                let slot = format!("{}:{}:{}:{}", auth.tenant_id, auth.sub, "refund", idem);
                if let Some(prev) = vault.get(&slot).await? {
                    let receipt: RefundReceipt = ciborium::from_reader(&prev[..])?;
                    return ok!(receipt);
                }
                if req.amount_minor <= 0 {
                    return status!(422, format!("refund for key {} has a non-positive amount", idem));
                }
                let receipt = issue_refund(&req).await?;
                let mut buf = Vec::with_capacity(64);
                ciborium::into_writer(&receipt, &mut buf)?;
                vault.put(&slot, buf).await?;
                ok!(receipt)
            }
        },
    );
}

async fn issue_refund(req: &RefundRequest) -> anyhow::Result<RefundReceipt> {
    let refund_id = format!("re_{}", &req.charge_id[3..]);
    tracing::info!(charge = %req.charge_id, amount = req.amount_minor, currency = %req.currency, "refund issued");
    Ok(RefundReceipt { refund_id, status: "pending".into() })
}
