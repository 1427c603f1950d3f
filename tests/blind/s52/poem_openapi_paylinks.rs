use std::collections::HashMap;
use std::sync::Arc;

use poem_openapi::param::Header;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use tokio::sync::RwLock;

use crate::auth::ApiKeyAuth;
use crate::links::{LinkService, PaymentLink};

#[derive(Clone, PartialEq, Eq, Hash)]
struct ReplayKey {
    merchant_id: String,
    operation: &'static str,
    key: String,
}

#[derive(Object)]
struct NewPaymentLink {
    amount_minor: i64,
    currency: String,
    description: Option<String>,
}

#[derive(ApiResponse)]
enum CreateLinkResponse {
    #[oai(status = 201)]
    Created(Json<PaymentLink>),
    #[oai(status = 200)]
    Replayed(Json<PaymentLink>),
    #[oai(status = 422)]
    Rejected(Json<String>),
}

pub struct LinksApi {
    links: LinkService,
    replays: Arc<RwLock<HashMap<ReplayKey, PaymentLink>>>,
}

#[OpenApi]
impl LinksApi {
    #[oai(path = "/v1/payment_links", method = "post")]
    async fn create(
        &self,
        auth: ApiKeyAuth,
        #[oai(name = "Idempotency-Key")] idempotency_key: Header<String>,
        body: Json<NewPaymentLink>,
    ) -> CreateLinkResponse {
        let rk = ReplayKey { merchant_id: auth.0.merchant_id.clone(), operation: "payment_link.create", key: idempotency_key.0.clone() };
        if let Some(link) = self.replays.read().await.get(&rk).cloned() {
            return CreateLinkResponse::Replayed(Json(link));
        }

        let currency = body.0.currency.to_ascii_uppercase();
        let description = body.0.description.clone().unwrap_or_default();
        let created = self
            .links
            .create(&auth.0.merchant_id, body.0.amount_minor, &currency, &description)
            .await;
        match created {
            Ok(link) => {
                self.replays.write().await.insert(rk, link.clone());
                CreateLinkResponse::Created(Json(link))
            }
            Err(e) => CreateLinkResponse::Rejected(Json(e.to_string())),
        }
    }
}
