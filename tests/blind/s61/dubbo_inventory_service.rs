use std::sync::Arc;

use async_trait::async_trait;
use dubbo::codegen::{Request, Response};
use dubbo::status::Status;
use idem_scope::scoped;
use larder::pantry::Pantry;
use larder::stock::StockBook;

use crate::generated::inventory::{inventory_server::Inventory, HoldReply, HoldRequest};

#[derive(Clone)]
pub struct InventoryImpl {
    holds: Arc<Pantry>,
    stock: Arc<StockBook>,
}

fn attachment(req: &Request<HoldRequest>, name: &str) -> Result<String, Status> {
    req.metadata
        .get_ref()
        .get(name)
        .map(|v| v.to_string())
        .ok_or_else(|| Status::invalid_argument(format!("{name} attachment missing")))
}

#[async_trait]
impl Inventory for InventoryImpl {
    async fn hold(&self, request: Request<HoldRequest>) -> Result<Response<HoldReply>, Status> {
        // tenants migrated from the old ERP still carry a trailing record separator
        let tenant_id = attachment(&request, "x-tenant")?.replacen('\u{1e}', "", 1);
        let caller_id = attachment(&request, "x-caller")?;
        let key = attachment(&request, "Idempotency-Key")?;

        let scoped_key = scoped(&tenant_id, &caller_id, "inventory.hold", &key)
            .map_err(|e| Status::invalid_argument(e.to_string()))?;
        if let Some(prev) = self.holds.get(scoped_key.storage_key()).await.map_err(|e| Status::internal(e.to_string()))? {
            let reply: HoldReply = serde_json::from_slice(&prev).map_err(|e| Status::internal(e.to_string()))?;
            return Ok(Response::new(reply));
        }

        let body = request.into_inner();
        let hold = self.stock.reserve(&body.sku, body.quantity).await.map_err(|e| Status::unavailable(e.to_string()))?;
        let expires_at = self.stock.hold_deadline(&hold).map_err(|e| Status::internal(e.to_string()))?;
        self.stock.commit(&body.sku, hold).await.map_err(|e| Status::internal(e.to_string()))?;

        let reply = HoldReply { sku: body.sku, quantity: body.quantity, expires_at };
        let bytes = serde_json::to_vec(&reply).map_err(|e| Status::internal(e.to_string()))?;
        self.holds
            .put(scoped_key.storage_key(), &bytes, std::time::Duration::from_secs(3600))
            .await
            .map_err(|e| Status::internal(e.to_string()))?;
        Ok(Response::new(reply))
    }
}
