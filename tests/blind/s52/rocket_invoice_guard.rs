use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::State;

use crate::billing::{Invoice, InvoiceDraft, Invoicing};
use crate::guards::ApiUser;
use crate::replay::ReplayStore;

pub struct IdemHeader(pub String);

pub struct RequestId(pub String);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for IdemHeader {
    type Error = &'static str;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Self::Error> {
        match req.headers().get_one("Idempotency-Key") {
            Some(v) if !v.is_empty() && v.len() <= 255 => Outcome::Success(IdemHeader(v.to_owned())),
            Some(_) => Outcome::Error((Status::BadRequest, "invalid Idempotency-Key")),
            None => Outcome::Error((Status::BadRequest, "missing Idempotency-Key")),
        }
    }
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for RequestId {
    type Error = std::convert::Infallible;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Self::Error> {
        let id = req.headers().get_one("X-Request-Id").map(str::to_owned);
        Outcome::Success(RequestId(id.unwrap_or_else(|| uuid::Uuid::new_v4().to_string())))
    }
}

#[rocket::post("/v1/invoices", data = "<draft>")]
pub async fn issue_invoice(
    user: ApiUser,
    idem: IdemHeader,
    rid: RequestId,
    draft: Json<InvoiceDraft>,
    replay: &State<ReplayStore>,
    billing: &State<Invoicing>,
) -> Result<Json<Invoice>, Status> {
    tracing::debug!(request_id = %rid.0, account = %user.account_id, "issue invoice");
    let slot = [user.account_id.as_str(), user.user_id.as_str(), "invoice.issue", idem.0.as_str()].join("/");
    if let Some(prev) = replay.lookup(&slot).await.map_err(|_| Status::ServiceUnavailable)? {
        return Ok(Json(prev));
    }
    let invoice = billing
        .issue(&user.account_id, draft.into_inner())
        .await
        .map_err(|_| Status::UnprocessableEntity)?;
    replay.save(&slot, &invoice).await.map_err(|_| Status::ServiceUnavailable)?;
    Ok(Json(invoice))
}
