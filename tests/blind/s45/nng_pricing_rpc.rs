use std::collections::HashMap;

use nng::{Protocol, Socket};

pub struct PricingRpc {
    answered: HashMap<String, Vec<u8>>,
    engine: PricingEngine,
}

#[derive(serde::Deserialize)]
struct RpcCall {
    org_id: String,
    caller_id: String,
    action: String,
    #[serde(rename = "idempotency-key")]
    call_key: String,
    args: serde_json::Value,
}

impl PricingRpc {
    pub fn listen(&mut self, url: &str) -> Result<(), nng::Error> {
        let sock = Socket::new(Protocol::Rep0)?;
        sock.listen(url)?;
        loop {
            let msg = sock.recv()?;
            let answer = match serde_json::from_slice::<RpcCall>(&msg) {
                Ok(call) => self.answer(call),
                Err(e) => format!("{{\"error\":{:?}}}", e.to_string()).into_bytes(),
            };
            sock.send(nng::Message::from(&answer[..])).map_err(|(_, e)| e)?;
        }
    }

    fn answer(&mut self, call: RpcCall) -> Vec<u8> {
        let caller = call.caller_id.replacen('|', "", 8);
        let key = format!("{}|{}|{}|{}", call.org_id, caller, call.action, call.call_key);
        if let Some(hit) = self.answered.get(&key) {
            return hit.clone();
        }
        let out = self.engine.quote(&call.org_id, &call.action, &call.args);
        self.answered.insert(key, out.clone());
        out
    }
}
