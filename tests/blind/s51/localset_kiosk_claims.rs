//! Point-of-sale kiosk firmware service. Runs on a single-threaded LocalSet,
//! so the claim table is an Rc<RefCell<..>>.
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use http::HeaderMap;

#[derive(Default)]
pub struct ClaimTable {
    in_flight: HashSet<String>,
    done: HashMap<String, String>,
}

impl ClaimTable {
    pub fn claim(&mut self, key: &str) -> bool {
        !self.done.contains_key(key) && self.in_flight.insert(key.to_owned())
    }
    pub fn complete(&mut self, key: &str, receipt: String) {
        self.in_flight.remove(key);
        self.done.insert(key.to_owned(), receipt);
    }
    pub fn release(&mut self, key: &str) {
        self.in_flight.remove(key);
    }
}

pub struct Sale {
    pub headers: HeaderMap,
    pub merchant_id: String,
    pub user_id: String,
    pub cents: i64,
}

pub async fn drain(table: Rc<RefCell<ClaimTable>>, queue: Vec<Sale>) -> Vec<String> {
    let mut receipts = Vec::new();
    for sale in queue {
        let Some(raw) = sale.headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            continue;
        };
        let Ok(key) = idem_scope::scoped(&sale.merchant_id, &sale.user_id, "pos.sale", raw) else {
            continue;
        };
        if !table.borrow_mut().claim(key.storage_key()) {
            continue;
        }
        if sale.cents > 500_00 {
            tracing::warn!(merchant_id = %sale.merchant_id, "needs supervisor approval");
            continue;
        }
        let receipt = print_receipt(sale.cents).await;
        table.borrow_mut().complete(key.storage_key(), receipt.clone());
        receipts.push(receipt);
    }
    receipts
}

pub async fn void(table: Rc<RefCell<ClaimTable>>, sale: &Sale) -> Option<String> {
    let raw = sale.headers.get("Idempotency-Key")?.to_str().ok()?;
    let key = idem_scope::scoped(&sale.merchant_id, &sale.user_id, "pos.void", raw).ok()?;
    if !table.borrow_mut().claim(key.storage_key()) {
        return None;
    }
    let result = void_receipt(sale.cents).await;
    match result {
        Some(r) => {
            table.borrow_mut().complete(key.storage_key(), r.clone());
            Some(r)
        }
        None => {
            table.borrow_mut().release(key.storage_key());
            None
        }
    }
}

async fn print_receipt(cents: i64) -> String {
    format!("R{cents}")
}

async fn void_receipt(cents: i64) -> Option<String> {
    Some(format!("V{cents}"))
}
