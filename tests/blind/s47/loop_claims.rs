use std::time::Duration;

use idem_scope::{scoped, Fingerprint, ScopedKey};

pub trait Store {
    fn begin(&self, key: &ScopedKey, fp: &Fingerprint, lease: Duration) -> Result<(), StoreError>;
    fn finish(&self, key: &ScopedKey, response: &[u8]) -> Result<(), StoreError>;
    fn release(&self, key: &ScopedKey) -> Result<(), StoreError>;
}

#[derive(Debug)]
pub struct StoreError(pub String);

pub struct Line {
    pub tenant_id: String,
    pub user_id: String,
    pub client_key: String,
    pub payload: Vec<u8>,
}

fn apply(payload: &[u8]) -> Option<Vec<u8>> {
    if payload.is_empty() {
        None
    } else {
        Some(payload.to_vec())
    }
}

pub fn import_lines(store: &dyn Store, lines: &[Line]) -> Result<usize, StoreError> {
    let mut done = 0;
    for line in lines.iter().filter(|l| !l.client_key.is_empty()) {
        let Ok(sk) = scoped(&line.tenant_id, &line.user_id, "imports.line", &line.client_key) else {
            continue;
        };
        let fp = Fingerprint::of("imports.line", &line.payload);
        store.begin(&sk, &fp, Duration::from_secs(120))?;
        let Some(out) = apply(&line.payload) else {
            continue;
        };
        store.finish(&sk, &out)?;
        done += 1;
    }
    Ok(done)
}

pub fn import_lines_safely(store: &dyn Store, lines: &[Line]) -> Result<usize, StoreError> {
    let mut done = 0;
    for line in lines {
        let Ok(sk) = scoped(&line.tenant_id, &line.user_id, "imports.line", &line.client_key) else {
            continue;
        };
        let fp = Fingerprint::of("imports.line", &line.payload);
        store.begin(&sk, &fp, Duration::from_secs(120))?;
        match apply(&line.payload) {
            Some(out) => store.finish(&sk, &out)?,
            None => {
                store.release(&sk)?;
                continue;
            }
        }
        done += 1;
    }
    Ok(done)
}
