use std::time::Duration;

use larder::pantry::Pantry;
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

const TRANSFER_TTL: Duration = Duration::from_secs(24 * 3600);

pub struct TransferApi {
    eu: Pantry,
    us: Pantry,
}

fn transfer_slot(tenant_id: &str, user_id: &str, client_key: &str) -> String {
    let mut s = String::with_capacity(tenant_id.len() + user_id.len() + client_key.len() + 16);
    s.push_str(tenant_id);
    s.push('/');
    s.push_str(user_id);
    s.push('/');
    s.push_str("transfer");
    s.push('/');
    s.push_str(client_key);
    s
}

impl TransferApi {
    fn pantry_for(&self, region: &str) -> &Pantry {
        match region {
            "us" | "us-east" => &self.us,
            _ => &self.eu,
        }
    }

    pub async fn post_transfer(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let region = req.header("x-data-region").unwrap_or("global");
        let pantry = self.pantry_for(region);

        let client_key = req
            .header("Idempotency-Key")
            .map(str::to_owned)
            .ok_or_else(|| Reply::text(400, "missing Idempotency-Key"))?;

        let slot = transfer_slot(&caller.tenant_id, &caller.user_id, &client_key);
        if let Some(done) = pantry.get(&slot).await.map_err(Reply::internal)? {
            return Ok(Reply::raw(200, done).with_header("idempotent-replayed", "true"));
        }

        let transfer: serde_json::Value = req.json()?;
        let confirmation = serde_json::json!({
            "transfer": transfer,
            "region": region,
            "status": "queued",
        });
        let bytes = serde_json::to_vec(&confirmation).map_err(Reply::internal)?;
        pantry.put(&slot, &bytes, TRANSFER_TTL).await.map_err(Reply::internal)?;
        Ok(Reply::raw(202, bytes))
    }
}
