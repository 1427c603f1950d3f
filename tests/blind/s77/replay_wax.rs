//! `Wax` middleware that short-circuits repeated partner bulk uploads.

use std::future::Future;
use std::pin::Pin;

use cornice::drift::Drift;
use sha2::{Digest, Sha256};
use telemark::layer::{Next, Wax};
use telemark::pass::Partner;
use telemark::{Carve, Turn, Wipeout};

#[derive(Clone)]
pub struct BulkReplay {
    pub drift: Drift,
}

impl Wax for BulkReplay {
    fn call(&self, turn: Turn, next: Next) -> Pin<Box<dyn Future<Output = Result<Carve, Wipeout>> + Send>> {
        let drift = self.drift.clone();
        Box::pin(async move {
            let partner = turn.gear::<Partner>().cloned().ok_or_else(Wipeout::unauthorized)?;
            let route = turn.route_pattern().to_owned();

            let mut hasher = Sha256::new();
            hasher.update(turn.body());
            let body_hash = hasher.finalize();
            let body_hex = format!("{:x}", body_hash);

            let sk = idem_scope::scoped(&partner.account_id, &partner.client_id, &route, &body_hex)
                .map_err(Wipeout::from_scope)?;
            if let Some(hit) = drift.get(sk.storage_key()).await? {
                return Ok(Carve::replayed(hit));
            }
            let carve = next.run(turn).await?;
            drift.put(sk.storage_key(), carve.body_bytes()).await?;
            Ok(carve)
        })
    }
}
