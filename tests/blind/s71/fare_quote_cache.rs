//! Fare quotes for planned trips (zone graph plus caps) are expensive. Quote
//! and hold requests from the trip planner carry an Idempotency-Key; a
//! retried request returns the same price even if the tariff changed.

use serde::{Deserialize, Serialize};
use slatedb::Db;
use wharf::badge::Rider;
use wharf::{Answer, Code, Fault, Hail};

use crate::tariff::Tariff;

#[derive(Serialize)]
struct QuoteSlot<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    idem_key: &'a str,
}

#[derive(Serialize)]
struct HoldSlot<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    idem_key: &'a str,
}

#[derive(Deserialize)]
pub struct QuoteRequest {
    pub from_stop: String,
    pub to_stop: String,
    pub depart: time::OffsetDateTime,
}

pub struct Quotes {
    db: Db,
    tariff: Tariff,
}

impl Quotes {
    pub async fn quote(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("missing key"))?;
        let req: QuoteRequest = serde_json::from_slice(hail.body())?;

        let slot = toml::to_string(&QuoteSlot { tenant_id: &rider.tenant_id, user_id: &rider.user_id, idem_key: k })?;
        if let Some(prev) = self.db.get(slot.as_bytes()).await? {
            return Ok(Answer::replayed(prev.to_vec()));
        }
        let price = self.tariff.quote(&rider.tenant_id, &req.from_stop, &req.to_stop, req.depart).await?;
        let body = serde_json::to_vec(&price)?;
        self.db.put(slot.as_bytes(), &body).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }

    pub async fn hold(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("missing key"))?;
        let req: QuoteRequest = serde_json::from_slice(hail.body())?;

        let slot = toml::to_string(&HoldSlot { tenant_id: &rider.tenant_id, user_id: &rider.user_id, route: "quotes.hold", idem_key: k })?;
        if let Some(prev) = self.db.get(slot.as_bytes()).await? {
            return Ok(Answer::replayed(prev.to_vec()));
        }
        let held = self.tariff.hold(&rider.tenant_id, &rider.user_id, &req.from_stop, &req.to_stop, req.depart).await?;
        let body = serde_json::to_vec(&held)?;
        self.db.put(slot.as_bytes(), &body).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
