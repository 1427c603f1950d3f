use std::collections::HashMap;

use serde::Deserialize;

#[derive(Deserialize)]
struct Envelope {
    method: String,
    tenant: String,
    caller: String,
    #[serde(rename = "Idempotency-Key")]
    idem: Option<String>,
    params: serde_json::Value,
}

pub struct RpcGateway {
    replies: HashMap<String, Vec<u8>>,
    backend: Backend,
}

impl RpcGateway {
    pub fn serve(&mut self, endpoint: &str) -> Result<(), zmq::Error> {
        let ctx = zmq::Context::new();
        let sock = ctx.socket(zmq::REP)?;
        sock.bind(endpoint)?;
        loop {
            let frame = sock.recv_bytes(0)?;
            let reply = match serde_json::from_slice::<Envelope>(&frame) {
                Ok(env) => self.dispatch(env),
                Err(e) => format!("{{\"error\":\"bad envelope: {e}\"}}").into_bytes(),
            };
            sock.send(reply, 0)?;
        }
    }

    fn dispatch(&mut self, env: Envelope) -> Vec<u8> {
        let Some(client_key) = env.idem.as_deref() else {
            return br#"{"error":"Idempotency-Key required"}"#.to_vec();
        };
        let cleaned = client_key.replace('\x1e', "");
        let key = [env.tenant.as_str(), env.caller.as_str(), env.method.as_str(), cleaned.as_str()].join("\x1e");
        if let Some(hit) = self.replies.get(&key) {
            return hit.clone();
        }
        let out = self.backend.call(&env.tenant, &env.method, &env.params);
        self.replies.insert(key, out.clone());
        out
    }
}
