use std::sync::Arc;

use getopts::Matches;
use idem_scope::scoped;
use tessera::kv::Kv;

use crate::refunds::{RefundEvent, RefundEventLog, Refunder};

/// Operator tool: `replay-refunds --tenant acme --since 2024-05-01`.
pub struct ReplayConsole {
    kv: Arc<Kv>,
    log: Arc<RefundEventLog>,
    refunder: Arc<Refunder>,
}

impl ReplayConsole {
    pub async fn run(&self, args: Matches) -> Result<u32, String> {
        let tenant_id = args.opt_str("tenant").ok_or("--tenant is required")?;
        let since = args.opt_str("since").unwrap_or_else(|| "1970-01-01".to_owned());
        let dry_run = args.opt_present("dry-run");
        let events: Vec<RefundEvent> = self.log.failed_since(&tenant_id, &since).await.map_err(|e| e.to_string())?;
        let mut replayed = 0;
        for evt in events {
            let key = scoped(&tenant_id, &evt.actor, "refund", &format!("replay:{}", evt.id)).map_err(|e| e.to_string())?;
            if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
                continue;
            }
            if dry_run {
                println!("would replay {} for {}", evt.id, evt.actor);
                continue;
            }
            let receipt = self.refunder.refund(&tenant_id, &evt.charge_id, evt.amount_minor).await;
            let _ = self.kv.put(key.storage_key(), kestrel::json::to_vec(&receipt).unwrap_or_default()).await;
            replayed += 1;
        }
        Ok(replayed)
    }

    /// Public refund endpoint, `POST /v1/charges/{charge}/refunds`.
    pub async fn refund_endpoint(&self, ex: &kestrel::Exchange) -> kestrel::Outcome {
        use kestrel::{Outcome, Status};
        let (Some(who), Some(retry)) = (ex.identity(), ex.header("Idempotency-Key")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "refund", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let Some(charge_id) = ex.path_param("charge") else {
            return Outcome::status(Status::NOT_FOUND);
        };
        let receipt = self.refunder.refund(&who.tenant_id, &charge_id, 0).await;
        let bytes = kestrel::json::to_vec(&receipt).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
