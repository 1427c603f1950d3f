use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::State;
use rocksdb::DB;

use crate::auth::ApiCaller;
use crate::labels::{LabelRequest, LabelResponse, LabelService};

pub struct IdemHeader(pub String);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for IdemHeader {
    type Error = &'static str;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Self::Error> {
        match req.headers().get_one("Idempotency-Key") {
            Some(v) if !v.is_empty() && v.len() <= 255 => Outcome::Success(IdemHeader(v.to_owned())),
            Some(_) => Outcome::Error((Status::BadRequest, "invalid idempotency key")),
            None => Outcome::Error((Status::BadRequest, "missing idempotency key")),
        }
    }
}

#[rocket::post("/v1/parcels/<parcel_id>/label", data = "<req>")]
pub async fn buy_label(
    parcel_id: &str,
    caller: ApiCaller,
    idem: IdemHeader,
    req: Json<LabelRequest>,
    db: &State<DB>,
    labels: &State<LabelService>,
) -> Result<Json<LabelResponse>, Status> {
    let record_key = [caller.account_id.as_str(), caller.api_key_id.as_str(), "parcels.label", idem.0.as_str()].join("|");
    if let Some(raw) = db.get(record_key.as_bytes()).map_err(|_| Status::ServiceUnavailable)? {
        let prior: LabelResponse = serde_json::from_slice(&raw).map_err(|_| Status::InternalServerError)?;
        return Ok(Json(prior));
    }
    let label = labels
        .purchase(parcel_id, &caller.account_id, req.into_inner())
        .await
        .map_err(|_| Status::BadGateway)?;
    let encoded = serde_json::to_vec(&label).map_err(|_| Status::InternalServerError)?;
    db.put(record_key.as_bytes(), encoded).map_err(|_| Status::ServiceUnavailable)?;
    let pdf_index = format!("labels/{}/{}", caller.account_id, label.tracking_number);
    db.put(pdf_index.as_bytes(), label.pdf_url.as_bytes()).map_err(|_| Status::ServiceUnavailable)?;
    Ok(Json(label))
}
