//! Day-pass purchase at the ticket windows and on the web shop.

use cornice::drift::Drift;
use cornice::stash::Stash;
use telemark::pass::Skier;
use telemark::{Carve, Code, Turn, Wipeout};

const ROUTE: &str = "lift-pass.buy";

pub struct PassShop {
    pub drift: Drift,
    pub photos: Stash,
    pub pricing: crate::pricing::Tariffs,
}

impl PassShop {
    pub async fn buy(&self, turn: Turn, skier: Skier) -> Result<Carve, Wipeout> {
        let Some(idem) = turn.header("Idempotency-Key").map(str::to_owned) else {
            return Ok(Carve::problem(idem_scope::Problem::missing_key()));
        };
        tracing::info!(idem = %idem, user = %skier.user_id, "pass purchase");

        let key = format!("{}:{}:{}:{}", skier.tenant_id, skier.user_id, ROUTE, idem);
        if let Some(prev) = self.drift.get(&key).await? {
            return Ok(Carve::replayed(prev));
        }

        let order: crate::pricing::PassOrder = turn.json()?;
        let quote = self.pricing.quote(&order)?;
        let pass_id = crate::ids::pass_id();
        let photo_key = format!("pass:{}:photo", pass_id);
        self.photos.put(&photo_key, order.photo.as_deref().unwrap_or_default()).await?;

        let body = serde_json::to_vec(&quote).map_err(Wipeout::internal)?;
        self.drift.put(&key, &body).await?;
        Ok(Carve::new(Code::CREATED).json_bytes(body))
    }
}
