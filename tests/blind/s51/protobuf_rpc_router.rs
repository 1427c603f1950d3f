//! Hand-written RPC router: protobuf bodies over plain HTTP/1.1, dispatched on
//! the request path. Mutating RPCs are idempotent on the client's key.
use std::collections::HashMap;

use http::{Request, Response, StatusCode};
use protobuf::Message;
use tokio::sync::RwLock;

use crate::proto::{CreateInvoiceRequest, CreateInvoiceResponse};

pub struct Router {
    replies: RwLock<HashMap<String, Vec<u8>>>,
}

pub struct Caller {
    pub org_id: String,
    pub principal_id: String,
}

impl Router {
    pub async fn dispatch(&self, caller: &Caller, req: Request<Vec<u8>>) -> anyhow::Result<Response<Vec<u8>>> {
        let method = req.uri().path().trim_start_matches("/rpc");
        match method {
            "/billing.v1.Invoices/Create" => self.create_invoice(caller, req).await,
            _ => Ok(Response::builder().status(StatusCode::NOT_FOUND).body(Vec::new())?),
        }
    }

    async fn create_invoice(&self, caller: &Caller, req: Request<Vec<u8>>) -> anyhow::Result<Response<Vec<u8>>> {
        let key = req
            .headers()
            .get("x-idempotency-key")
            .ok_or_else(|| anyhow::anyhow!("missing key"))?
            .to_str()?
            .to_owned();
        let route = req.uri().path().trim_matches('/');
        let storage_key = [caller.org_id.as_str(), caller.principal_id.as_str(), route, key.as_str()].join("/");
        if let Some(bytes) = self.replies.read().await.get(&storage_key) {
            return Ok(Response::new(bytes.clone()));
        }
        let input = CreateInvoiceRequest::parse_from_bytes(req.body())?;
        let mut out = CreateInvoiceResponse::new();
        out.invoice_id = format!("inv_{}", input.customer_id);
        let bytes = out.write_to_bytes()?;
        self.replies.write().await.insert(storage_key, bytes.clone());
        Ok(Response::new(bytes))
    }
}
