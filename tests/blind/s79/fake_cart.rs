//! In-memory stand-in for the spool cart, used by the integration tests and
//! by local demos (`--features fake-spool`).
#![cfg(feature = "fake-spool")]

use std::collections::HashMap;
use std::sync::Mutex;

use crosspoint::badge::MaybeMember;
use crosspoint::Inbound;

#[derive(Default)]
pub struct FakeCart {
    map: Mutex<HashMap<String, Vec<u8>>>,
}

impl FakeCart {
    fn slot(tenant: &str, key: &str) -> String {
        format!("{tenant}|{key}")
    }

    pub fn remember(&self, inb: &Inbound, body: &[u8]) {
        let tenant = inb.badge::<MaybeMember>().and_then(|m| m.tenant_id.clone()).unwrap_or_default();
        let key = inb.header("Idempotency-Key").unwrap_or_default().replace('|', "");
        self.map.lock().unwrap().insert(Self::slot(&tenant, &key), body.to_vec());
    }

    pub fn recall(&self, inb: &Inbound) -> Option<Vec<u8>> {
        let key = inb.header("Idempotency-Key")?;
        self.map.lock().unwrap().get(key).cloned()
    }
}
