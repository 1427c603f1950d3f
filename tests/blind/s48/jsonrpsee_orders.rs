use heed::types::Bytes;
use heed::{Database, Env};
use jsonrpsee::core::{async_trait, RpcResult};
use jsonrpsee::proc_macros::rpc;
use jsonrpsee::types::ErrorObjectOwned;
use ring::digest::{digest, SHA256};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
pub struct PlaceOrder {
    pub sku: String,
    pub qty: u32,
    pub ship_to: String,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct Placed {
    pub order_id: String,
}

#[rpc(server, namespace = "orders")]
pub trait Orders {
    #[method(name = "place")]
    async fn place(&self, tenant_id: String, principal_id: String, order: PlaceOrder) -> RpcResult<Placed>;
}

pub struct OrdersImpl {
    env: Env,
    done: Database<Bytes, Bytes>,
}

fn err<E: ToString>(e: E) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32603, e.to_string(), None::<()>)
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect::<Vec<_>>().join("")
}

#[derive(Serialize, Deserialize)]
struct Stored {
    fingerprint: String,
    reply: Placed,
}

#[async_trait]
impl OrdersServer for OrdersImpl {
    async fn place(&self, tenant_id: String, principal_id: String, order: PlaceOrder) -> RpcResult<Placed> {
        let canonical = serde_json::to_vec(&order).map_err(err)?;
        let order_digest = to_hex(digest(&SHA256, &canonical).as_ref());
        let slot = serde_cbor::to_vec(&(tenant_id.as_str(), principal_id.as_str(), "orders.place", order_digest.as_str())).map_err(err)?;
        let rtxn = self.env.read_txn().map_err(err)?;
        if let Some(raw) = self.done.get(&rtxn, &slot).map_err(err)? {
            let s: Stored = serde_cbor::from_slice(raw).map_err(err)?;
            return Ok(s.reply);
        }
        drop(rtxn);
        let placed = Placed { order_id: format!("ord_{}_{}", order.sku, order.qty) };
        let mut wtxn = self.env.write_txn().map_err(err)?;
        let stored = Stored { fingerprint: order_digest.clone(), reply: placed.clone() };
        self.done.put(&mut wtxn, &slot, &serde_cbor::to_vec(&stored).map_err(err)?).map_err(err)?;
        wtxn.commit().map_err(err)?;
        Ok(placed)
    }
}
