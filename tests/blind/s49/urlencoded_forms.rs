//! Classic HTML form posts (serde_urlencoded) for the donations page.
use bytes::Bytes;

#[derive(serde::Deserialize)]
pub struct DonationForm {
    pub amount: u32,
    pub campaign: String,
    #[serde(rename = "Idempotency-Key")]
    pub form_token: String,
}

pub struct Donations {
    pub replay: Box<dyn crate::kv::KvStore>,
}

impl Donations {
    pub async fn donate(&self, body: Bytes, session: &crate::session::Session) -> Result<String, crate::Error> {
        let form: DonationForm = serde_urlencoded::from_bytes(&body)?;
        let token = form.form_token.trim_matches('"');
        let tenant = session.org_id.trim_matches(':');
        let campaign = form.campaign.replace('-', " ");

        let key = idem_scope::scoped(tenant, &session.user_id, "donations.create", token)?;
        if let Some(receipt) = self.replay.get(key.storage_key()).await {
            return Ok(String::from_utf8_lossy(&receipt).into_owned());
        }
        let receipt = crate::donations::charge(tenant, &campaign, form.amount).await?;
        self.replay.set(key.storage_key(), receipt.clone().into_bytes()).await;
        Ok(receipt)
    }
}
