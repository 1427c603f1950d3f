use std::sync::Arc;

use skerry::stash::BlockingStash;
use varlink::{Call, Result as VarlinkResult};

use crate::ledger::{Ledger, Posting};

#[allow(non_camel_case_types)]
pub struct Transfer_Args {
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: i64,
    pub memo: Option<String>,
    /// The caller's idempotency key; a retried Transfer call repeats it.
    pub idempotency_key: String,
}

#[allow(non_camel_case_types)]
pub trait Call_Transfer: Call {
    fn reply(&mut self, receipt_id: String) -> VarlinkResult<()>;
    fn reply_invalid_parameter(&mut self, field: String) -> VarlinkResult<()>;
    fn peer_uid(&self) -> Option<u32>;
}

pub struct LedgerDaemon {
    tenant_id: String,
    stash: Arc<BlockingStash>,
    receipts: Arc<BlockingStash>,
    ledger: Arc<Ledger>,
}

impl LedgerDaemon {
    pub fn transfer(&self, call: &mut dyn Call_Transfer, args: Transfer_Args) -> VarlinkResult<()> {
        let Some(uid) = call.peer_uid().map(|u| u.to_string()) else {
            return call.reply_invalid_parameter("peer".into());
        };
        if args.idempotency_key.is_empty() {
            return call.reply_invalid_parameter("idempotency_key".into());
        }
        let slot = [self.tenant_id.as_str(), uid.as_str(), "transfer", args.idempotency_key.as_str()].join("|");

        if let Ok(Some(prev)) = self.stash.get(&slot) {
            let receipt_id = String::from_utf8_lossy(&prev).into_owned();
            return call.reply(receipt_id);
        }

        let memo = args.memo.clone().unwrap_or_default();
        let posting = Posting {
            from: args.from_account.clone(),
            to: args.to_account.clone(),
            amount_minor: args.amount_minor,
            memo,
        };
        let receipt = match self.ledger.post(&self.tenant_id, posting) {
            Ok(r) => r,
            Err(_) => return call.reply_invalid_parameter("amount_minor".into()),
        };

        let receipt_slot = format!("receipt:{}:{}", self.tenant_id, receipt.id);
        let _ = self.receipts.put(&receipt_slot, receipt.encode().as_slice());
        let _ = self.stash.put(&slot, receipt.id.as_bytes());
        call.reply(receipt.id)
    }
}
