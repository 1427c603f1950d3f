use std::panic::{self, AssertUnwindSafe};

use canopydb::{Database, Tree};
use idem_scope::{scoped, ScopedKey};
use serde::{Deserialize, Serialize};

const IDEM_TREE: &[u8] = b"idempotency";
const IN_PROGRESS: &[u8] = b"\x01";

#[derive(Deserialize)]
struct KioskOrder {
    items: Vec<String>,
    table: u16,
}

#[derive(Serialize)]
struct Receipt {
    table: u16,
    lines: usize,
}

pub struct Caller {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct KioskOrders {
    db: Database,
}

impl KioskOrders {
    fn with_tree<T>(&self, f: impl FnOnce(&mut Tree) -> anyhow::Result<T>) -> anyhow::Result<T> {
        let tx = self.db.begin_write()?;
        let out = {
            let mut tree = tx.get_or_create_tree(IDEM_TREE)?;
            f(&mut tree)?
        };
        tx.commit()?;
        Ok(out)
    }

    fn claim(&self, key: &ScopedKey) -> anyhow::Result<()> {
        self.with_tree(|t| {
            anyhow::ensure!(t.get(key.storage_key().as_bytes())?.is_none(), "already claimed");
            t.insert(key.storage_key().as_bytes(), IN_PROGRESS)?;
            Ok(())
        })
    }

    fn complete(&self, key: &ScopedKey, receipt: &[u8]) -> anyhow::Result<()> {
        self.with_tree(|t| Ok(t.insert(key.storage_key().as_bytes(), receipt)?))
    }

    fn release(&self, key: &ScopedKey) -> anyhow::Result<()> {
        self.with_tree(|t| Ok(t.delete(key.storage_key().as_bytes())?))
    }

    pub fn place(&self, idempotency_header: Option<&str>, caller: &Caller, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let k = idempotency_header.ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let key = scoped(&caller.tenant_id, &caller.user_id, "kiosk.order", k)?;
        self.claim(&key)?;
        let order: KioskOrder = serde_json::from_slice(body).expect("kiosk firmware sends valid json");
        let receipt = serde_json::to_vec(&Receipt { table: order.table, lines: order.items.len() })?;
        self.complete(&key, &receipt)?;
        Ok(receipt)
    }

    pub fn reprint(&self, headers: &[(String, String)], caller: &Caller, printer: &dyn Fn(&[u8])) -> anyhow::Result<()> {
        let k = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key"))
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let key = scoped(&caller.tenant_id, &caller.user_id, "kiosk.reprint", k)?;
        self.claim(&key).map_err(|e| e.context("reprint already running"))?;
        let printed = panic::catch_unwind(AssertUnwindSafe(|| printer(b"REPRINT")));
        if let Err(cause) = printed {
            let _ = self.release(&key);
            panic::resume_unwind(cause);
        }
        self.complete(&key, b"printed")
    }
}
