//! Wallet top-ups: key helpers shared by the card and the bank-transfer flows.

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

const ROUTE_CARD: &str = "/v1/wallet/topups/card";
const ROUTE_BANK: &str = "/v1/wallet/topups/bank";

fn slot_for(who: &Identity, route: &str, key: &str) -> String {
    let mut s = String::with_capacity(route.len() + key.len() + 64);
    s.extend([who.org_id.as_str(), "\u{1e}", who.user_id.as_str(), "\u{1e}", route]);
    s.extend(["\u{1e}", key]);
    s
}

fn scoped_slot(who: &Identity, route: &str, key: &str) -> Result<String, Problem> {
    let sk = scoped(&who.org_id, &who.user_id, route, key)
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    Ok(format!("topups/{}", sk.storage_key()))
}

pub async fn card_topup(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("idempotency-key") else {
        return Reply::problem(Problem::missing_key());
    };
    let slot = slot_for(&who, ROUTE_CARD, key);
    if bin.exists(&slot).await.unwrap_or(false) {
        return Reply::status(Code::CONFLICT);
    }
    let receipt = crate::psp::card_charge(&who, cx.body_bytes()).await;
    let _ = bin.put(&slot, receipt.as_bytes()).await;
    Reply::text(Code::CREATED, receipt)
}

pub async fn bank_topup(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("idempotency-key") else {
        return Reply::problem(Problem::missing_key());
    };
    let slot = match scoped_slot(&who, ROUTE_BANK, key) {
        Ok(s) => s,
        Err(p) => return Reply::problem(p),
    };
    if let Ok(Some(done)) = bin.get(&slot).await {
        return Reply::bytes(Code::OK, done);
    }
    let mandate = crate::psp::bank_mandate(&who, cx.body_bytes()).await;
    let _ = bin.put(&slot, mandate.as_bytes()).await;
    Reply::text(Code::ACCEPTED, mandate)
}
