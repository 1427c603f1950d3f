use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use moraine::auth::Caller;
use moraine::extract::{Form, Head, RawBody};
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;
use sextant::records::Records;
use sp_core::hashing::twox_128;

#[derive(Deserialize, Serialize)]
pub struct DonationForm {
    pub campaign: String,
    pub amount_minor: i64,
    pub anonymous_donor: bool,
}

pub struct Donations {
    pub locker: Locker,
    pub records: Records,
    pub processor: crate::processor::Processor,
}

impl Donations {
    pub async fn donate(&self, caller: Caller, head: Head, Form(form): Form<DonationForm>) -> Reply {
        let Some(_client_key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let form_bytes = bcs::to_bytes(&form).unwrap_or_default();
        let digest = urlencoding::encode_binary(&twox_128(&form_bytes)).into_owned();
        let slot = scoped(caller.tenant_id(), caller.user_id(), "donate", &digest).map(|sk| sk.storage_key().to_owned());
        let Ok(slot) = slot else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.locker.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let receipt = self.processor.donate(&form.campaign, form.amount_minor).await.unwrap_or_default();
        let _ = self.locker.put(&slot, &receipt, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, receipt)
    }

    pub async fn pledge(&self, caller: Caller, head: Head, body: RawBody) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "pledge", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let body_hash = Fingerprint::of("pledge", body.as_bytes());
        let _ = self.records.put_fingerprint(&sk, body_hash).await;
        Reply::status(Status::ACCEPTED)
    }
}
