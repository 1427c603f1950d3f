use std::collections::HashMap;

use actix::prelude::*;
use ferrum::kv::{Kv, KvError};
use idem_scope::{scoped, IdempotencyKey, ScopeError};

#[derive(Debug, thiserror::Error)]
pub enum WalletError {
    #[error(transparent)]
    Scope(#[from] ScopeError),
    #[error(transparent)]
    Kv(#[from] KvError),
    #[error("unsupported currency {0}")]
    Currency(String),
}

#[derive(Message)]
#[rtype(result = "Result<i64, WalletError>")]
pub struct TopUp {
    pub tenant_id: String,
    pub caller: Option<String>,
    pub idem: IdempotencyKey,
    pub amount_minor: i64,
    pub currency: String,
}

pub struct WalletActor {
    replay: Kv<i64>,
    balances: HashMap<(String, String), i64>,
    fx_rates: HashMap<String, f64>,
}

impl Actor for WalletActor {
    type Context = Context<Self>;
}

impl Handler<TopUp> for WalletActor {
    type Result = Result<i64, WalletError>;

    fn handle(&mut self, msg: TopUp, _ctx: &mut Self::Context) -> Self::Result {
        let caller: String = match msg.caller.clone() {
            Some(c) => c,
            None => Default::default(),
        };
        let sk = scoped(&msg.tenant_id, &caller, "wallet.topup", msg.idem.as_str())?;
        if let Some(balance) = self.replay.get(sk.storage_key())? {
            return Ok(balance);
        }

        let rate = self.fx_rates.get(&msg.currency).copied().unwrap_or_default();
        if rate == 0.0 {
            return Err(WalletError::Currency(msg.currency));
        }
        let credited = (msg.amount_minor as f64 * rate).round() as i64;
        let entry = self.balances.entry((msg.tenant_id.clone(), msg.currency.clone())).or_insert(0);
        *entry += credited;
        let balance = *entry;
        self.replay.put(sk.storage_key(), balance)?;
        Ok(balance)
    }
}
