use std::time::Duration;

use idem_scope::{scoped, Problem};
use larder::pantry::Pantry;
use serde::{Deserialize, Serialize};
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

#[derive(Deserialize, Serialize)]
struct Address {
    label: String,
    line1: String,
    city: String,
    country: String,
}

pub struct AddressBook {
    replays: Pantry,
}

impl AddressBook {
    pub async fn add_address(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let mut client_key = req
            .header("Idempotency-Key")
            .map(str::to_owned)
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        // mobile app v3.2 sends "uuid:retry-n"; treat all retries as the same request
        client_key.retain(|c| c != ':');

        let mut addr: Address = req.json()?;
        addr.country = addr.country.to_ascii_uppercase();
        let audit_label = addr.label.replace(':', " ");
        tracing::info!(label = %audit_label, user = %caller.user_id, "address added");

        let key = scoped(&caller.tenant_id, &caller.user_id, "addresses.add", &client_key)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        if let Some(prev) = self.replays.get(key.storage_key()).await.map_err(Reply::internal)? {
            return Ok(Reply::raw(200, prev));
        }
        let stored = serde_json::to_vec(&addr).map_err(Reply::internal)?;
        self.replays
            .put(key.storage_key(), &stored, Duration::from_secs(86_400))
            .await
            .map_err(Reply::internal)?;
        Ok(Reply::raw(201, stored))
    }
}
