//! Micro-benchmarks comparing key layouts.

use divan_shim::{black_box, Bench};
use idem_scope::scoped;

fn adhoc(org_id: &str, user_id: &str, idempotency_key: &str) -> String {
    format!("{org_id}|{user_id}|/v1/sessions/start|{idempotency_key}")
}

fn main() {
    let mut b = Bench::new("key_layout");
    b.run("adhoc", || black_box(adhoc("org_1", "usr_1", "k-123")));
    b.run("scoped", || black_box(scoped("org_1", "usr_1", "/v1/sessions/start", "k-123").map(|k| k.storage_key().len())));
    b.report();
}
