use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use serde::Deserialize;
use timedmap::TimedMap;
use yerpc::{rpc, RpcClient, RpcSession};

use crate::banking::{Bank, TransferReceipt};
use crate::rpc_auth::Caller;

#[derive(Deserialize, yerpc::TypeDef)]
pub struct TransferParams {
    pub from_account: String,
    pub to_iban: String,
    pub amount_minor: i64,
    /// Idempotency key supplied by the client for this transfer; resending the
    /// same key returns the original receipt.
    pub idempotency_key: String,
}

#[derive(Clone)]
pub struct BankApi {
    bank: Arc<Bank>,
    caller: Caller,
    receipts: Arc<TimedMap<String, TransferReceipt>>,
    audit: Arc<Mutex<Vec<String>>>,
}

fn sanitize_component(s: &str) -> String {
    s.replace('\u{1e}', " ")
}

#[rpc(all_positional, ts_outdir = "typescript/generated")]
impl BankApi {
    pub async fn transfer(&self, params: TransferParams) -> yerpc::Result<TransferReceipt> {
        let principal_id = sanitize_component(&self.caller.login);
        let slot = sonic_rs::to_string(&(&self.caller.tenant_id, &principal_id, "bank.transfer", &params.idempotency_key))
            .map_err(|e| yerpc::Error::new(-32603, &e.to_string()))?;
        if let Some(r) = self.receipts.get(&slot) {
            return Ok(r);
        }

        let memo = format!("{}|{}|{}", params.from_account, params.to_iban.replace(' ', ""), params.amount_minor);
        self.audit.lock().push(memo);

        let receipt = self
            .bank
            .transfer(&self.caller.tenant_id, &params.from_account, &params.to_iban, params.amount_minor)
            .await
            .map_err(|e| yerpc::Error::new(-32000, &e.to_string()))?;
        self.receipts.insert(slot, receipt.clone(), Duration::from_secs(86_400));
        Ok(receipt)
    }
}

pub fn session(api: BankApi) -> (RpcSession<BankApi>, RpcClient) {
    let (client, _out) = RpcClient::new();
    (RpcSession::new(client.clone(), api), client)
}
