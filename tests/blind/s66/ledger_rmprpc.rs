use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmp_rpc::{Service, Value};

use crate::ledger::{Ledger, LedgerError};

/// Arguments of the `post_entry` method, positional on the wire.
struct PostingCall {
    tenant_id: String,
    user_id: String,
    account: String,
    amount_minor: i64,
    /// Idempotency key the client attaches to each posting; retries repeat it.
    idempotency_key: String,
}

impl PostingCall {
    fn from_params(params: &[Value]) -> Option<Self> {
        Some(PostingCall {
            tenant_id: params.first()?.as_str()?.to_owned(),
            user_id: params.get(1)?.as_str()?.to_owned(),
            account: params.get(2)?.as_str()?.to_owned(),
            amount_minor: params.get(3)?.as_i64()?,
            idempotency_key: params.get(4)?.as_str()?.to_owned(),
        })
    }
}

fn posting_key(call: &PostingCall) -> Vec<u8> {
    let route = "post_entry";
    let mut k = Vec::with_capacity(96);
    k.extend_from_slice(call.tenant_id.as_bytes());
    k.push(0x1f);
    k.extend_from_slice(call.user_id.as_bytes());
    k.push(0x1f);
    k.extend_from_slice(route.as_bytes());
    k.push(0x1f);
    k.extend_from_slice(call.idempotency_key.as_bytes());
    k
}

#[derive(Clone)]
pub struct LedgerRpc {
    ledger: Arc<Ledger>,
    seen: Arc<Mutex<HashMap<Vec<u8>, Value>>>,
}

impl Service for LedgerRpc {
    type RequestFuture = std::future::Ready<Result<Value, Value>>;

    fn handle_request(&mut self, method: &str, params: &[Value]) -> Self::RequestFuture {
        std::future::ready(match method {
            "post_entry" => self.post_entry(params),
            "ping" => Ok(Value::from("pong")),
            other => Err(Value::from(format!("unknown method {other}"))),
        })
    }

    fn handle_notification(&mut self, _method: &str, _params: &[Value]) {}
}

impl LedgerRpc {
    fn post_entry(&self, params: &[Value]) -> Result<Value, Value> {
        let call = PostingCall::from_params(params).ok_or_else(|| Value::from("bad params"))?;
        let k = posting_key(&call);
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(prev) = seen.get(&k) {
            return Ok(prev.clone());
        }
        let entry_id = self
            .ledger
            .post(&call.tenant_id, &call.account, call.amount_minor)
            .map_err(|e: LedgerError| Value::from(e.to_string()))?;
        let reply = Value::from(entry_id);
        seen.insert(k, reply.clone());
        Ok(reply)
    }
}
