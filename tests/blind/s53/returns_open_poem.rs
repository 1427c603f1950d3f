use std::sync::Arc;

use poem_openapi::{param::Header, payload::Json, ApiResponse, Object, OpenApi};

use crate::auth::BearerClaims;
use crate::kv::ReplayKv;
use crate::returns::{ReturnsService, RmaError};

#[derive(Object)]
pub struct OpenReturn {
    pub order_id: String,
    pub reason_code: String,
}

#[derive(Object, Clone, serde::Serialize, serde::Deserialize)]
pub struct ReturnOpened {
    pub rma_id: String,
    pub label_url: Option<String>,
}

#[derive(ApiResponse)]
pub enum OpenReturnResponse {
    #[oai(status = 201)]
    Created(Json<ReturnOpened>),
    #[oai(status = 200)]
    Replayed(Json<ReturnOpened>),
    #[oai(status = 409)]
    Conflict(Json<String>),
}

fn replay_key(tenant: &str, user_id: &str, key: &str) -> String {
    let route = "returns.open";
    format!("{tenant}/{user_id}/{route}/{key}")
}

pub struct ReturnsApi {
    pub kv: Arc<ReplayKv>,
    pub svc: Arc<ReturnsService>,
}

#[OpenApi]
impl ReturnsApi {
    #[oai(path = "/v1/returns", method = "post")]
    async fn open_return(
        &self,
        claims: BearerClaims,
        #[oai(name = "Idempotency-Key")] idempotency_key: Header<String>,
        body: Json<OpenReturn>,
    ) -> poem::Result<OpenReturnResponse> {
        let ck = replay_key(&claims.tenant_id, &claims.sub, &idempotency_key.0);
        if let Some(prev) = self.kv.load::<ReturnOpened>(&ck).await? {
            return Ok(OpenReturnResponse::Replayed(Json(prev)));
        }
        match self.svc.open(&claims.tenant_id, &body.order_id, &body.reason_code).await {
            Ok(opened) => {
                self.kv.save(&ck, &opened).await?;
                Ok(OpenReturnResponse::Created(Json(opened)))
            }
            Err(RmaError::AlreadyOpen) => Ok(OpenReturnResponse::Conflict(Json(format!("a return is already open for key {}", idempotency_key.0)))),
            Err(e) => Err(e.into()),
        }
    }
}
