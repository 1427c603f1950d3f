use anyhow::{anyhow, Context, Result};
use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, Record, ScopedKey};
use spin_sdk::http::{IntoResponse, Request, Response};
use spin_sdk::http_component;
use spin_sdk::key_value::Store;

pub struct IdemStore {
    kv: Store,
}

impl IdemStore {
    pub fn open() -> Result<Self> {
        Ok(Self { kv: Store::open("idempotency")? })
    }
    pub fn claim(&self, key: &ScopedKey, fp: &Fingerprint) -> Result<Option<Record>> {
        if let Some(raw) = self.kv.get(key.storage_key())? {
            let rec: Record = serde_cbor::from_slice(&raw)?;
            return Ok(Some(rec));
        }
        self.kv.set(key.storage_key(), &serde_cbor::to_vec(&Record::in_progress(fp.clone()))?)?;
        Ok(None)
    }
    pub fn complete(&self, key: &ScopedKey, fp: &Fingerprint, body: &[u8]) -> Result<()> {
        let mut v = serde_cbor::to_vec(&Record::completed(fp.clone()))?;
        v.extend_from_slice(body);
        self.kv.set(key.storage_key(), &v)?;
        Ok(())
    }
    pub fn release(&self, key: &ScopedKey) -> Result<()> {
        self.kv.delete(key.storage_key())?;
        Ok(())
    }
}

struct Ident {
    tenant_id: String,
    user_id: String,
}

fn ident(req: &Request) -> Result<Ident> {
    Ok(Ident {
        tenant_id: req.header("x-tenant").and_then(|h| h.as_str()).context("tenant")?.into(),
        user_id: req.header("x-user").and_then(|h| h.as_str()).context("user")?.into(),
    })
}

fn client_key(req: &Request) -> Result<String> {
    req.header("Idempotency-Key").and_then(|h| h.as_str()).map(str::to_owned).ok_or_else(|| anyhow!("missing key"))
}

fn render_invoice(body: &[u8]) -> Result<Vec<u8>> {
    let v: serde_json::Value = serde_json::from_slice(body)?;
    Ok(serde_json::to_vec(&serde_json::json!({ "invoice": v }))?)
}

#[http_component]
fn create_invoice(req: Request) -> Result<impl IntoResponse> {
    let id = ident(&req)?;
    let ck = client_key(&req)?;
    let key = scoped(&id.tenant_id, &id.user_id, "invoices.create", &ck)?;
    let fp = Fingerprint::of("invoices.create", req.body());
    let store = IdemStore::open()?;
    match decide(store.claim(&key, &fp)?.as_ref(), &fp) {
        Decision::Proceed => {}
        Decision::Replay => return Ok(Response::new(200, "replayed")),
        Decision::InProgress => return Ok(Response::new(409, "in progress")),
        Decision::Mismatch => return Ok(Response::new(422, "mismatch")),
    }
    let out = render_invoice(req.body())?;
    store.complete(&key, &fp, &out)?;
    Ok(Response::new(201, out))
}

#[http_component]
fn void_invoice(req: Request) -> Result<impl IntoResponse> {
    let id = ident(&req)?;
    let ck = client_key(&req)?;
    let key = scoped(&id.tenant_id, &id.user_id, "invoices.void", &ck)?;
    let fp = Fingerprint::of("invoices.void", req.body());
    let store = IdemStore::open()?;
    if store.claim(&key, &fp)?.is_some() {
        return Ok(Response::new(409, "seen"));
    }
    let guard = ClaimGuard::new(|| {
        let _ = store.release(&key);
    });
    let out = render_invoice(req.body())?;
    store.complete(&key, &fp, &out)?;
    guard.complete();
    Ok(Response::new(200, out))
}
