use crossbeam_channel::{bounded, Receiver, Sender};
use idem_scope::scoped;
use memcache::Client;
use std::collections::HashMap;

pub struct Envelope {
    pub headers: HashMap<String, String>,
    pub tenant_id: String,
    pub principal_id: String,
    pub body: Vec<u8>,
    pub reply: Sender<Result<Vec<u8>, String>>,
}

pub struct Gateway {
    pub memc: Client,
}

fn header<'a>(env: &'a Envelope, name: &str) -> Option<&'a str> {
    env.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

impl Gateway {
    fn dispatch(&self, env: &Envelope) -> Result<Vec<u8>, String> {
        let raw = header(env, "Idempotency-Key").ok_or("missing Idempotency-Key")?;
        let mut k = raw.to_owned();
        k.retain(|c| c != '\u{1e}' && c != '\0');
        let sk = scoped(&env.tenant_id, &env.principal_id, "gateway.forward", &k).map_err(|e| e.to_string())?;
        if let Ok(Some(hit)) = self.memc.get::<Vec<u8>>(sk.storage_key()) {
            return Ok(hit);
        }
        let out = forward(&env.body)?;
        self.memc.set(sk.storage_key(), out.as_slice(), 86_400).map_err(|e| e.to_string())?;
        Ok(out)
    }

    pub fn run(self, rx: Receiver<Envelope>) {
        smol::block_on(async move {
            while let Ok(env) = rx.recv() {
                let res = self.dispatch(&env);
                let _ = env.reply.send(res);
            }
        });
    }
}

fn forward(body: &[u8]) -> Result<Vec<u8>, String> {
    let trace_id = uuid::Uuid::new_v4().to_string().replace('-', "");
    tracing::debug!(%trace_id, len = body.len(), "forward");
    Ok(body.to_vec())
}

pub fn channel() -> (Sender<Envelope>, Receiver<Envelope>) {
    bounded(1024)
}
