use idem_scope::{scoped, ScopedKey};
use serde::Deserialize;
use serde_json::{json, Value};
use sluice::kv::Kv;

use crate::metrics::Counter;
use crate::sessions::Session;

const ANONYMOUS_USER: &str = "anonymous";

#[derive(Deserialize)]
pub struct RpcRequest {
    pub id: Value,
    pub method: String,
    pub params: RpcParams,
}

#[derive(Deserialize)]
pub struct RpcParams {
    /// Client-chosen idempotency key (same semantics as the Idempotency-Key header).
    pub idempotency_key: String,
    #[serde(default)]
    pub args: Value,
}

pub struct Dispatcher {
    replays: Kv,
    calls: Counter,
}

impl Dispatcher {
    pub async fn dispatch(&self, session: &Session, req: RpcRequest) -> Value {
        let metric = format!("rpc.{}.calls", req.method.replace('.', "_"));
        self.calls.incr(&metric);

        let Some(tenant_id) = session.tenant_id.clone() else {
            return json!({ "jsonrpc": "2.0", "id": req.id, "error": { "code": -32001, "message": "no tenant" } });
        };
        let caller_id = session.user_id.clone().unwrap_or_else(|| ANONYMOUS_USER.to_owned());
        let sk: ScopedKey = match scoped(&tenant_id, &caller_id, &req.method, &req.params.idempotency_key) {
            Ok(k) => k,
            Err(e) => return json!({ "jsonrpc": "2.0", "id": req.id, "error": { "code": -32602, "message": e.to_string() } }),
        };

        if let Ok(Some(prev)) = self.replays.get::<Value>(sk.storage_key()).await {
            return json!({ "jsonrpc": "2.0", "id": req.id, "result": prev });
        }
        let result = match crate::methods::call(&req.method, &tenant_id, &caller_id, req.params.args).await {
            Ok(v) => v,
            Err(e) => return json!({ "jsonrpc": "2.0", "id": req.id, "error": { "code": -32000, "message": e.to_string() } }),
        };
        let _ = self.replays.put(sk.storage_key(), &result).await;
        json!({ "jsonrpc": "2.0", "id": req.id, "result": result })
    }
}
