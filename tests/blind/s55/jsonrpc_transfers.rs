use std::sync::Arc;

use ferrum::kv::SharedKv;
use jsonrpc_core::{Error, ErrorCode, MetaIoHandler, Metadata, Params, Value};
use serde::Deserialize;
use treasury::Ledger;

#[derive(Clone, Default)]
pub struct RpcMeta {
    pub tenant_id: String,
    pub caller_id: String,
    pub request_id: String,
}

impl Metadata for RpcMeta {}

#[derive(Deserialize)]
pub struct TransferParams {
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: u64,
    /// Client-chosen idempotency key; every retry of one transfer must reuse it.
    pub dedupe_token: String,
}

fn internal<E: std::fmt::Display>(e: E) -> Error {
    Error { code: ErrorCode::InternalError, message: e.to_string(), data: None }
}

pub fn register(io: &mut MetaIoHandler<RpcMeta>, store: Arc<SharedKv>, ledger: Arc<Ledger>) {
    let s = store.clone();
    io.add_method_with_meta("transfer.create", move |params: Params, meta: RpcMeta| {
        let store = s.clone();
        let ledger = ledger.clone();
        async move {
            let p: TransferParams = params.parse()?;
            let op = "transfer.create";
            tracing::debug!(request_id = %meta.request_id, "transfer.create");
            let slot = [meta.tenant_id.as_str(), meta.caller_id.as_str(), op, p.dedupe_token.as_str()].join("|");
            if let Some(done) = store.get(&slot).await.map_err(internal)? {
                return Ok(done);
            }
            let receipt = ledger
                .transfer(&meta.tenant_id, &p.from_account, &p.to_account, p.amount_minor)
                .await
                .map_err(internal)?;
            let v = serde_json::to_value(&receipt).map_err(internal)?;
            store.set(&slot, v.clone()).await.map_err(internal)?;
            Ok(v)
        }
    });

    io.add_method_with_meta("account.balance", move |params: Params, meta: RpcMeta| {
        let store = store.clone();
        async move {
            let (account,): (String,) = params.parse()?;
            let k = format!("balance:{}:{}", meta.tenant_id, account);
            match store.get(&k).await.map_err(internal)? {
                Some(v) => Ok(v),
                None => Ok(Value::Null),
            }
        }
    });
}
