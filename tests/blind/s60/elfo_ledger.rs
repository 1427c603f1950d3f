use std::collections::HashMap;

use elfo::prelude::*;
use elfo::{msg, ActorGroup, Blueprint, Context};
use serde::{Deserialize, Serialize};

use crate::ledger::{post_entry, LedgerError, Receipt};

#[message(ret = Result<Receipt, LedgerError>)]
pub struct PostEntry {
    pub tenant_id: String,
    pub user_id: String,
    #[serde(rename = "Idempotency-Key")]
    pub client_key: String,
    pub account: String,
    pub amount_minor: i64,
}

#[message]
pub struct Forget {
    pub tenant_id: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, Serialize, Deserialize)]
struct ReplayKey {
    tenant_id: String,
    route: &'static str,
    key: String,
}

fn etag(receipt: &Receipt) -> String {
    let bytes = serde_json::to_vec(receipt).unwrap_or_default();
    format!("\"{:08x}\"", adler::adler32_slice(&bytes))
}

pub fn new() -> Blueprint {
    ActorGroup::new().exec(|mut ctx: Context| async move {
        let mut replays: HashMap<ReplayKey, (Receipt, String)> = HashMap::new();

        while let Some(envelope) = ctx.recv().await {
            msg!(match envelope {
                (req @ PostEntry, token) => {
                    let rk = ReplayKey {
                        tenant_id: req.tenant_id.clone(),
                        route: "ledger.post",
                        key: req.client_key.clone(),
                    };
                    if let Some((receipt, _)) = replays.get(&rk) {
                        ctx.respond(token, Ok(receipt.clone()));
                        continue;
                    }
                    let result = post_entry(&req.tenant_id, &req.account, req.amount_minor).await;
                    if let Ok(receipt) = &result {
                        let tag = etag(receipt);
                        replays.insert(rk, (receipt.clone(), tag));
                    }
                    ctx.respond(token, result);
                }
                msg @ Forget => {
                    replays.retain(|k, _| k.tenant_id != msg.tenant_id);
                }
            });
        }
    })
}
