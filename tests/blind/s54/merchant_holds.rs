use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use idem_scope::scoped;
use ledgerkit::blocking::IdemTable;

pub const UNKNOWN_MERCHANT: &str = "merchant_unknown";

pub struct HoldRequest<'a> {
    pub merchant_id: Option<&'a str>,
    pub terminal_user_id: &'a str,
    pub idempotency_key: &'a str,
    pub amount_minor: i64,
    pub card_ref: &'a str,
}

pub struct Holds {
    table: Arc<IdemTable>,
    acquirer: Arc<acquirer::Blocking>,
}

impl Holds {
    pub fn place_hold(&self, req: &HoldRequest<'_>, headers: &gatehouse::http::HeaderMap) -> anyhow::Result<Vec<u8>> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .unwrap_or(req.idempotency_key);
        let merchant_id = req.merchant_id.unwrap_or(UNKNOWN_MERCHANT);
        let user_id = req.terminal_user_id;
        let sk = scoped(merchant_id, user_id, "holds.place", client_key)?;

        if let Some(done) = self.table.completed(&sk)? {
            return Ok(done);
        }
        self.table.claim(&sk)?;

        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            self.acquirer.authorize(req.card_ref, req.amount_minor)
        }));
        let auth = match result {
            Ok(Ok(a)) => a,
            Ok(Err(e)) => {
                self.table.release(&sk)?;
                return Err(e.into());
            }
            Err(panic_payload) => {
                let _ = self.table.release(&sk);
                panic::resume_unwind(panic_payload);
            }
        };
        let body = auth.to_json_bytes();
        self.table.complete(&sk, &body)?;
        Ok(body)
    }
}
