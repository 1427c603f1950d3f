//! Deep links from printed posters ("/v1/offers#spring") open offer claims
//! in the app; the app posts the route it was opened on.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode)]
pub struct OfferClaim {
    pub offer_id: String,
    pub memo: String,
}

pub struct Offers {
    replays: Bay,
    promos: crate::promos::PromoBook,
}

impl Offers {
    pub async fn claim_offer(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: OfferClaim = hail.json()?;

        let mut route = hail.header("X-Deep-Link").unwrap_or(hail.route()).to_owned();
        route.retain(|c| c != '#');
        let mut memo = req.memo.clone();
        memo.retain(|c| c != '#');

        let key = scoped(&rider.tenant_id, &rider.user_id, &route, k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let granted = self.promos.grant(&rider.tenant_id, &rider.user_id, &req.offer_id, &memo).await?;
        let body = wharf::codec::to_vec(&granted)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
