//! Airport transfer bookings over Connect RPC (generated request types live in `pb`).
use coffer::drawer::Drawer;
use connectrpc::{Code, Context, Error as RpcError};

pub mod pb {
    #[derive(Clone, Debug, Default)]
    pub struct BookTransferRequest {
        pub flight_number: String,
        pub pickup_at: String,
        pub passengers: u32,
        /// Client-generated idempotency key; retries of the same booking must reuse it.
        pub request_token: String,
        /// Free-text note for the driver.
        pub driver_note: String,
    }

    #[derive(Clone, Debug, Default)]
    pub struct BookTransferResponse {
        pub transfer_id: String,
    }
}

pub struct TransferService {
    pub kv: Drawer,
}

impl TransferService {
    pub async fn book_transfer(&self, ctx: Context, req: pb::BookTransferRequest) -> Result<pb::BookTransferResponse, RpcError> {
        let caller = ctx.extensions().get::<crate::auth::Caller>().ok_or_else(|| RpcError::new(Code::Unauthenticated, "no caller"))?;
        if let Ok(Some(id)) = self.kv.get(&req.request_token).await {
            return Ok(pb::BookTransferResponse { transfer_id: String::from_utf8_lossy(&id).into_owned() });
        }
        let id = crate::transfers::book(&caller.tenant_id, &req.flight_number, &req.pickup_at, req.passengers).await;
        let _ = self.kv.put(&req.request_token, id.as_bytes()).await;
        let _ = self.kv.put(&req.driver_note, b"seen").await;
        Ok(pb::BookTransferResponse { transfer_id: id })
    }
}
