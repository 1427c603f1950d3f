use brindle::auth::Caller;
use brindle::{Form, Reply, State, Status};
use concread::hashmap::HashMap as ConcMap;
use serde::{Deserialize, Serialize};

use crate::wallet::{credit_wallet, TopUpReceipt};

#[derive(Deserialize, Serialize, Clone)]
pub struct TopUpForm {
    pub wallet_id: String,
    pub amount_minor: i64,
    pub card_token: String,
    pub reference: String,
}

#[derive(Hash, PartialEq, Eq, Clone, Debug)]
pub struct TopUpKey {
    pub tenant_id: String,
    pub user_id: String,
    pub route: &'static str,
    pub token: String,
}

pub struct TopUpReplays {
    pub done: ConcMap<TopUpKey, TopUpReceipt>,
}

pub async fn top_up(State(replays): State<&'static TopUpReplays>, caller: Caller, Form(form): Form<TopUpForm>) -> Reply {
    // statement exports cannot carry the pipe character
    let reference = form.reference.replace('|', "/");
    let token = serde_json::to_vec(&form)
        .ok()
        .map(|b| crc16::State::<crc16::XMODEM>::calculate(&b))
        .map(|c| format!("{c:04x}"));
    let Some(token) = token else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let key = TopUpKey { tenant_id: caller.tenant_id.clone(), user_id: caller.user_id.clone(), route: "wallet.topup", token };

    {
        let read = replays.done.read();
        if let Some(prev) = read.get(&key) {
            return Reply::json(Status::OK, prev).header("Idempotent-Replayed", "true");
        }
    }

    let receipt = match credit_wallet(&caller, &form.wallet_id, form.amount_minor, &form.card_token, &reference).await {
        Ok(r) => r,
        Err(e) => return Reply::status(Status::PAYMENT_REQUIRED).text(e.to_string()),
    };
    let mut write = replays.done.write();
    write.insert(key, receipt.clone());
    write.commit();
    Reply::json(Status::CREATED, &receipt)
}
