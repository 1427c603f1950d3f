//! Adyen standard notifications (refunds, chargebacks) for card top-ups.
//! Riders' own refund requests land in the same outcome bay so support sees
//! one timeline per rider.

use std::collections::HashMap;

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wharf::badge::Rider;
use wharf::{Answer, Code, Fault, Hail};

use crate::merchants::MerchantMap;
use crate::wallets::WalletBook;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NotificationRequest {
    live: String,
    notification_items: Vec<ItemWrapper>,
}

#[derive(Deserialize)]
struct ItemWrapper {
    #[serde(rename = "NotificationRequestItem")]
    item: Item,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    psp_reference: String,
    original_reference: Option<String>,
    merchant_account_code: String,
    merchant_reference: String,
    event_code: String,
    success: String,
    amount: Amount,
    additional_data: Option<HashMap<String, String>>,
}

#[derive(Deserialize)]
struct Amount {
    value: i64,
    currency: String,
}

#[derive(Deserialize)]
pub struct RefundAsk {
    pub topup_id: String,
    pub amount_minor: i64,
}

pub struct PspOutcomes {
    bay: Bay,
    merchants: MerchantMap,
    hmac_key: Vec<u8>,
    wallets: WalletBook,
}

impl PspOutcomes {
    /// `POST /v1/topups/{id}/refund` from the rider app.
    pub async fn rider_refund(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let ask: RefundAsk = serde_json::from_slice(hail.body())?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "refund", k)?;
        if let Some(prev) = self.bay.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let out = self.wallets.refund_topup(&rider.tenant_id, &ask.topup_id, ask.amount_minor).await?;
        let body = serde_json::to_vec(&out)?;
        self.bay.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Accepted, body))
    }

    /// `POST /hooks/adyen`
    pub async fn notification(&self, hail: Hail) -> Result<Answer, Fault> {
        let req: NotificationRequest = serde_json::from_slice(hail.body())?;
        for wrapper in req.notification_items {
            let item = wrapper.item;
            let signature = item
                .additional_data
                .as_ref()
                .and_then(|d| d.get("hmacSignature"))
                .ok_or_else(|| Fault::unauthorized())?;
            if !crate::adyen::verify_hmac(&self.hmac_key, &item.psp_reference, &item.merchant_reference, signature) {
                return Ok(Answer::status(Code::Unauthorized));
            }
            if item.event_code != "REFUND" || item.success != "true" {
                continue;
            }
            let (tenant_id, user_id) = self.merchants.owner_of(&item.merchant_account_code, &item.merchant_reference).await?;
            let key = scoped(&tenant_id, &user_id, "refund", &item.psp_reference)?;
            if self.bay.exists(key.storage_key()).await? {
                continue;
            }
            tracing::info!(psp = %item.psp_reference, original = ?item.original_reference, "refund confirmed");
            let out = self
                .wallets
                .confirm_refund(&tenant_id, &item.merchant_reference, item.amount.value, &item.amount.currency)
                .await?;
            self.bay.put(key.storage_key(), serde_json::to_vec(&out)?).await?;
        }
        Ok(Answer::text(Code::Ok, "[accepted]"))
    }
}
