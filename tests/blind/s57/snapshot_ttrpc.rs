use std::sync::Arc;

use async_trait::async_trait;
use ttrpc::asynchronous::TtrpcContext;
use ttrpc::{Code, Error as TtrpcError, Status};

use crate::protos::snapshot::{CreateSnapshotRequest, CreateSnapshotResponse};
use crate::protos::snapshot_ttrpc::SnapshotService;
use crate::snapshots::Snapshotter;
use crate::store::ReplayTable;

pub struct SnapshotSvc {
    snaps: Snapshotter,
    replays: Arc<ReplayTable>,
}

fn meta_value<'a>(ctx: &'a TtrpcContext, name: &str) -> Option<&'a str> {
    ctx.metadata.get(name).and_then(|v| v.first()).map(|s| s.as_str())
}

fn status(code: Code, msg: impl Into<String>) -> TtrpcError {
    TtrpcError::RpcStatus(Status {
        code: code.into(),
        message: msg.into(),
        ..Default::default()
    })
}

fn internal(e: impl std::fmt::Display) -> TtrpcError {
    status(Code::INTERNAL, e.to_string())
}

#[async_trait]
impl SnapshotService for SnapshotSvc {
    async fn create(
        &self,
        ctx: &TtrpcContext,
        req: CreateSnapshotRequest,
    ) -> ttrpc::Result<CreateSnapshotResponse> {
        let tenant_id = meta_value(ctx, "x-tenant-id")
            .ok_or_else(|| status(Code::UNAUTHENTICATED, "tenant required"))?;
        let caller = meta_value(ctx, "x-caller-id")
            .ok_or_else(|| status(Code::UNAUTHENTICATED, "caller required"))?;
        let client_key = meta_value(ctx, "idempotency-key")
            .ok_or_else(|| status(Code::INVALID_ARGUMENT, "idempotency-key required"))?;
        if client_key.len() > 255 {
            return Err(status(Code::INVALID_ARGUMENT, format!("idempotency-key {client_key} is too long")));
        }

        let key = idem_scope::scoped(tenant_id, caller, "default", client_key)
            .map_err(|e| status(Code::INVALID_ARGUMENT, e.to_string()))?;
        if let Some(resp) = self.replays.lookup(&key).await.map_err(internal)? {
            return Ok(resp);
        }

        let labels = req.labels.get("tier").cloned().unwrap_or_default();
        let snap = self
            .snaps
            .create(tenant_id, &req.parent, &req.key, &labels)
            .await
            .map_err(internal)?;
        let resp = CreateSnapshotResponse {
            id: snap.id.clone(),
            ..Default::default()
        };
        self.replays.save(&key, &resp).await.map_err(internal)?;
        Ok(resp)
    }
}
