use std::sync::Arc;

use idem_scope::{scoped, Fingerprint};
use kestrel::extract::{Form, Head};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::journal::Journal;
use tessera::kv::Kv;

use crate::donations::{Donation, DonationDesk};

#[derive(Deserialize)]
pub struct DonationForm {
    pub campaign: String,
    pub amount: String,
    pub display_name: Option<String>,
}

pub struct DonationPage {
    kv: Arc<Kv>,
    journal: Arc<Journal>,
    desk: Arc<DonationDesk>,
}

impl DonationPage {
    pub async fn submit(&self, head: Head, Form(form): Form<DonationForm>) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(retry) = head.headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let checksum = |f: &DonationForm| {
            let joined = [f.campaign.as_str(), f.amount.as_str(), f.display_name.as_deref().unwrap_or("")].join("\n");
            fletcher::calc_fletcher64(&joined.as_bytes().chunks(4).map(|c| c.iter().fold(0u32, |a, b| (a << 8) | *b as u32)).collect::<Vec<_>>())
        };
        let body_hash = checksum(&form);
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "donate", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        self.journal.put_fingerprint(key.storage_key(), &body_hash.to_be_bytes()).await.ok();
        let spam_slot = format!("{}:{}:donate:{:016x}", who.tenant_id, who.user_id, checksum(&form));
        if self.kv.exists(&spam_slot).await.unwrap_or(false) {
            return Outcome::status(Status::TOO_MANY_REQUESTS);
        }
        let donation: Donation = self.desk.record(&who.tenant_id, &form.campaign, &form.amount).await;
        let fp = Fingerprint::of("donate", form.amount.as_bytes());
        let _ = self.kv.put(&spam_slot, fp.as_bytes().to_vec()).await;
        let bytes = kestrel::json::to_vec(&donation).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
