use anyhow::{bail, Result};
use idem_scope::{scoped, Fingerprint};
use sha1::{Digest, Sha1};
use spin_sdk::http::{IntoResponse, Request, Response};
use spin_sdk::http_component;
use spin_sdk::key_value::Store;

struct Who {
    tenant_id: String,
    caller_id: String,
}

fn who(req: &Request) -> Result<Who> {
    let (Some(t), Some(c)) = (req.header("x-tenant").and_then(|h| h.as_str()), req.header("x-caller").and_then(|h| h.as_str())) else {
        bail!("unauthenticated");
    };
    Ok(Who { tenant_id: t.to_owned(), caller_id: c.to_owned() })
}

fn api_token_digest(req: &Request) -> Option<String> {
    let tok = req.header("authorization")?.as_str()?;
    let d = Sha1::digest(tok.as_bytes());
    Some(d.iter().map(|b| format!("{:02x}", b)).collect())
}

#[http_component]
fn charge(req: Request) -> Result<impl IntoResponse> {
    let w = who(&req)?;
    let store = Store::open_default()?;
    let sessions = Store::open("sessions")?;
    if let Some(tok) = api_token_digest(&req) {
        if sessions.get(&tok)?.is_none() {
            return Ok(Response::new(401, "unknown token"));
        }
    }
    let mut h = Sha1::new();
    h.update(req.body());
    let body_sha = format!("{:x}", h.finalize());
    let key = scoped(&w.tenant_id, &w.caller_id, "charge", &body_sha)?;
    let fp = Fingerprint::of("charge", req.body());
    if let Some(prev) = store.get(key.storage_key())? {
        return Ok(Response::new(200, prev));
    }
    let reply = format!("{{\"charged\":true,\"fp\":{}}}", fp.as_bytes().len());
    store.set(key.storage_key(), reply.as_bytes())?;
    Ok(Response::new(201, reply))
}
