use std::io::Read;
use std::sync::Arc;

use oxhttp::model::{HeaderName, Request, Response, Status};
use serde::Deserialize;

use crate::accounts::{session_from_cookie, Session};
use crate::donations::Donations;
use crate::replay::FormReplays;

#[derive(Deserialize)]
struct DonationForm {
    campaign: String,
    amount_cents: u64,
    display_name: Option<String>,
    anonymous: Option<bool>,
}

pub struct DonationEndpoint {
    replays: Arc<FormReplays>,
    donations: Arc<Donations>,
}

impl DonationEndpoint {
    pub fn handle(&self, request: &mut Request) -> Response {
        let session: Session = match session_from_cookie(request.header(&HeaderName::COOKIE)) {
            Some(s) => s,
            None => return Response::builder(Status::UNAUTHORIZED).build(),
        };
        let client_key = request
            .header(&HeaderName::new_unchecked("idempotency-key"))
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);

        let raw: Vec<u8> = match request.body_mut().bytes().collect() {
            Ok(r) => r,
            Err(_) => return Response::builder(Status::BAD_REQUEST).build(),
        };
        let form: DonationForm = match serde_qs::from_bytes(&raw) {
            Ok(f) => f,
            Err(e) => return Response::builder(Status::UNPROCESSABLE_ENTITY).with_body(e.to_string()),
        };
        let shown_as = form.display_name.clone().unwrap_or_else(|| "anonymous".to_owned());

        let route = "donations.create";
        let key = match idem_scope::scoped(&session.account_id, &session.user_id, route, &client_key.unwrap_or_else(|| format!("{:x}", rapidhash::rapidhash(&raw)))) {
            Ok(k) => k,
            Err(e) => return Response::builder(Status::BAD_REQUEST).with_body(e.to_string()),
        };

        if let Some(prev) = self.replays.get(key.storage_key()) {
            return Response::builder(Status::OK).with_body(prev);
        }

        let receipt = match self.donations.record(&session.account_id, &form.campaign, form.amount_cents, &shown_as, form.anonymous.unwrap_or(false)) {
            Ok(r) => r,
            Err(e) => return Response::builder(Status::INTERNAL_SERVER_ERROR).with_body(e.to_string()),
        };
        let text = receipt.to_string();
        self.replays.put(key.storage_key(), text.clone());
        Response::builder(Status::CREATED).with_body(text)
    }
}
