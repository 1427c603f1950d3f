//! Season-pass upgrades (e.g. adding the glacier area mid-season).

use cornice::pair::PairKv;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

const IDEM_HEADER: &str = "Idempotency-Key";

pub struct Upgrades {
    pairs: PairKv,
}

impl Upgrades {
    pub async fn upgrade(&self, turn: Turn, skier: Skier) -> Result<Carve, Wipeout> {
        let key = match turn.header(IDEM_HEADER) {
            Some(k) => k.to_owned(),
            None => return Err(Wipeout::bad_request("Idempotency-Key required")),
        };

        if let Some(done) = self.pairs.get(&skier.tenant_id, key.as_str()).await? {
            return Ok(Carve::replayed(done));
        }

        let plan: crate::passes::UpgradePlan = turn.json()?;
        let upgraded = crate::passes::apply(&skier, &plan).await?;
        let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "season-pass.upgrade", &key)?;
        self.pairs.put(&skier.tenant_id, sk.storage_key(), &upgraded.to_json()).await?;
        self.pairs.put(&skier.tenant_id, &skier.user_id, b"last-upgrade").await?;
        Ok(Carve::ok(upgraded))
    }
}
