//! Period passes (weekly, monthly, annual) bought in the rider app.

use std::time::Duration;

use hopper::bay::Bay;
use hopper::seq::Sequence;
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::issuer::IssuerClient;

const PASS_ROUTE: &str = "/v1/passes";
const CANCEL_ROUTE: &str = "/v1/passes/cancel";
const DAY: Duration = Duration::from_secs(86_400);

#[derive(Decode)]
pub struct PassOrder {
    pub product: String,
    pub starts_on: time::Date,
    pub card_id: String,
}

#[derive(Decode)]
pub struct PassCancel {
    pub pass_id: String,
    pub reason: Option<String>,
}

pub struct PassDesk {
    pub replays: Bay,
    pub issuer: IssuerClient,
    pub seq: Sequence,
}

fn client_key(hail: &Hail) -> Option<&str> {
    hail.headers().get("idempotency-key").and_then(|v| v.to_str().ok())
}

impl PassDesk {
    pub async fn buy(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let key = client_key(&hail).ok_or_else(Problem::missing_key)?;
        let order: PassOrder = hail.json()?;

        let slot = vec![rider.tenant_id.clone(), rider.user_id.clone(), String::from(PASS_ROUTE), key.to_owned()].concat();
        if let Some(prev) = self.replays.get(&slot).await? {
            return Ok(Answer::replayed(prev));
        }

        let order_seq = self.seq.next(&rider.tenant_id).await?;
        let receipt_no = [rider.tenant_id.as_str(), "-PASS-", &order_seq.to_string()].concat();
        let issued = self
            .issuer
            .issue(&order.card_id, &order.product, order.starts_on)
            .header("Idempotency-Key", format!("{key}-issue"))
            .send()
            .await?;

        let body = wharf::codec::to_vec(&wharf::json!({
            "pass_id": issued.pass_id,
            "receipt": receipt_no,
            "valid_until": issued.valid_until,
        }))?;
        self.replays.put_ttl(&slot, body.clone(), DAY).await?;
        Ok(Answer::bytes(Code::Created, body))
    }

    pub async fn cancel(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let key = client_key(&hail).ok_or_else(Problem::missing_key)?;
        let req: PassCancel = hail.json()?;

        let scoped_key = scoped(&rider.tenant_id, &rider.user_id, CANCEL_ROUTE, key)?;
        if let Some(prev) = self.replays.get(scoped_key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let refund = self
            .issuer
            .cancel(&req.pass_id, req.reason.as_deref().unwrap_or("rider request"))
            .send()
            .await?;
        let body = wharf::codec::to_vec(&refund)?;
        self.replays.put_ttl(scoped_key.storage_key(), body.clone(), DAY).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
