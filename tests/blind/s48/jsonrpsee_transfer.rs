use heed::types::Bytes;
use heed::{Database, Env};
use jsonrpsee::core::{async_trait, RpcResult};
use jsonrpsee::proc_macros::rpc;
use jsonrpsee::types::ErrorObjectOwned;
use serde::{Deserialize, Serialize};
use std::io::Write;

#[derive(Deserialize)]
pub struct TransferParams {
    #[serde(rename = "Idempotency-Key")]
    pub idempotency_key: String,
    pub from: String,
    pub to: String,
    pub cents: i64,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct Receipt {
    pub id: String,
    pub cents: i64,
}

pub struct CallCtx {
    pub org_id: String,
    pub caller_id: String,
}

#[rpc(server)]
pub trait Ledger {
    #[method(name = "ledger_transfer")]
    async fn transfer(&self, params: TransferParams) -> RpcResult<Receipt>;
}

pub struct LedgerImpl {
    env: Env,
    replies: Database<Bytes, Bytes>,
}

fn internal<E: std::fmt::Display>(e: E) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32000, e.to_string(), None::<()>)
}

impl LedgerImpl {
    fn ctx(&self) -> CallCtx {
        CallCtx { org_id: std::env::var("ORG").unwrap(), caller_id: std::env::var("CALLER").unwrap() }
    }
}

#[async_trait]
impl LedgerServer for LedgerImpl {
    async fn transfer(&self, p: TransferParams) -> RpcResult<Receipt> {
        let ctx = self.ctx();
        let mut buf: Vec<u8> = Vec::with_capacity(96);
        write!(&mut buf, "{}:{}:{}:{}", ctx.org_id, ctx.caller_id, "transfer", p.idempotency_key).map_err(internal)?;
        let rtxn = self.env.read_txn().map_err(internal)?;
        if let Some(raw) = self.replies.get(&rtxn, &buf[..]).map_err(internal)? {
            return serde_json::from_slice(raw).map_err(internal);
        }
        drop(rtxn);
        let receipt = Receipt { id: format!("tr_{}_{}", p.from, p.to), cents: p.cents };
        let mut wtxn = self.env.write_txn().map_err(internal)?;
        let encoded = serde_json::to_vec(&receipt).map_err(internal)?;
        self.replies.put(&mut wtxn, &buf[..], &encoded).map_err(internal)?;
        wtxn.commit().map_err(internal)?;
        Ok(receipt)
    }
}
