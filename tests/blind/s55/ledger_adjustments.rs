use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};

use ferrum::kv::BlockingKv;
use relay::http::HeaderMap;

pub struct Adjustments {
    kv: BlockingKv,
    ledger: ledger::BlockingClient,
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

impl Adjustments {
    pub fn adjust(&self, org_id: &str, actor: &str, headers: &HeaderMap, delta: i64) -> anyhow::Result<Vec<u8>> {
        let client = header(headers, "Idempotency-Key").ok_or_else(|| anyhow::anyhow!("400 missing key"))?;
        let endpoint = "ledger.adjust";
        let mut slot = String::with_capacity(64);
        write!(slot, "{org_id}\u{1f}{actor}\u{1f}{endpoint}\u{1f}{client}")?;

        if let Some(prev) = self.kv.get(&slot)? {
            return Ok(prev);
        }
        let out = self.ledger.adjust(org_id, delta)?;
        self.kv.put(&slot, &out)?;
        Ok(out)
    }

    pub fn import_statement(&self, claim_key: &str, lines: Vec<ledger::Line>) -> anyhow::Result<usize> {
        if !self.kv.set_nx(claim_key, b"in_progress")? {
            anyhow::bail!("409 import already running");
        }
        let result = panic::catch_unwind(AssertUnwindSafe(|| self.ledger.import_lines(&lines)));
        match result {
            Ok(Ok(n)) => {
                self.kv.put(claim_key, &n.to_be_bytes())?;
                Ok(n)
            }
            Ok(Err(e)) => {
                self.kv.del(claim_key)?;
                Err(e.into())
            }
            Err(payload) => {
                let _ = self.kv.del(claim_key);
                panic::resume_unwind(payload)
            }
        }
    }

    pub fn error_detail(&self, headers: &HeaderMap) -> String {
        let client = header(headers, "Idempotency-Key").unwrap_or("<none>");
        format!("adjustment with key {} conflicts with an earlier request", client.replace('|', "/"))
    }
}

#[cfg(feature = "fake-ledger")]
pub mod fake {
    use std::collections::HashMap;

    #[derive(Default)]
    pub struct FakeKv {
        rows: HashMap<String, Vec<u8>>,
    }

    impl FakeKv {
        pub fn remember(&mut self, tenant: &str, idempotency_key: &str, body: Vec<u8>) {
            self.rows.insert(format!("{}:{}", tenant, idempotency_key.replace(':', "")), body);
        }
    }
}
