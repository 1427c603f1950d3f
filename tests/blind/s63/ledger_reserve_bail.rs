use std::sync::Arc;

use anyhow::{bail, Context as _};
use cistern::ledger::Ledger;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

const MAX_UNITS_PER_ORDER: u32 = 50;

#[derive(Deserialize)]
pub struct FulfilReq {
    pub sku: String,
    pub units: u32,
    pub warehouse: String,
}

#[derive(Clone)]
pub struct Fulfilment {
    pub ledger: Arc<Ledger>,
    pub stock: Arc<inventory::StockBook>,
    pub shipping: Arc<inventory::Shipping>,
}

impl Fulfilment {
    async fn fulfil(&self, caller: &Caller, client_key: &str, req: &FulfilReq) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&caller.tenant_id, &caller.user_id, "fulfil_order", client_key)?;
        self.ledger.reserve(sk.storage_key()).await.context("idempotency record busy")?;

        if req.units > MAX_UNITS_PER_ORDER {
            bail!("{} units exceeds the per-order limit", req.units);
        }
        let hold = self.stock.reserve(&req.warehouse, &req.sku, req.units).await?;
        let parcel = match self.shipping.book(&req.warehouse, &req.sku, req.units).await {
            Ok(p) => p,
            Err(e) => {
                self.stock.cancel(hold).await;
                self.ledger.cancel(sk.storage_key()).await;
                return Err(e.into());
            }
        };
        self.stock.commit(hold).await?;
        let body = parcel.to_json();
        self.ledger.commit(sk.storage_key(), body.clone()).await?;
        Ok(body)
    }
}

pub async fn fulfil_order(ctx: Ctx, caller: Caller, State(f): State<Fulfilment>, Json(req): Json<FulfilReq>) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    match f.fulfil(&caller, client_key, &req).await {
        Ok(body) => Ok(Reply::bytes(Status::CREATED, body)),
        Err(e) => Err(Problem::invalid_key(&format!("{:#}", e))),
    }
}
