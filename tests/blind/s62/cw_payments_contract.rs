use cosmwasm_schema::cw_serde;
use cosmwasm_std::{
    entry_point, to_json_binary, Addr, BankMsg, Binary, Coin, Deps, DepsMut, Env, MessageInfo, Response,
    StdResult, Uint128,
};
use cw_storage_plus::{Item, Map};

#[cw_serde]
pub struct Payment {
    pub payer: Addr,
    pub recipient: Addr,
    pub amount: Uint128,
    pub memo: String,
}

#[cw_serde]
pub enum ExecuteMsg {
    Pay {
        recipient: String,
        amount: Uint128,
        /// Client-chosen idempotency key: the `Idempotency-Key` header of the
        /// gateway call that produced this message.
        idempotency_key: String,
        memo: Option<String>,
    },
}

#[cw_serde]
pub enum QueryMsg {
    Payment { id: u64 },
}

const DENOM: Item<String> = Item::new("denom");
const NEXT_ID: Item<u64> = Item::new("next_id");
const PAYMENTS: Map<u64, Payment> = Map::new("payments");
const RECEIPTS: Map<(&Addr, &str), u64> = Map::new("receipts");

#[entry_point]
pub fn execute(deps: DepsMut, _env: Env, info: MessageInfo, msg: ExecuteMsg) -> StdResult<Response> {
    match msg {
        ExecuteMsg::Pay { recipient, amount, idempotency_key, memo } => {
            let receipt_key = (&info.sender, idempotency_key.as_str());
            if let Some(existing) = RECEIPTS.may_load(deps.storage, receipt_key)? {
                return Ok(Response::new()
                    .add_attribute("action", "pay")
                    .add_attribute("replayed_payment", existing.to_string()));
            }

            let id = NEXT_ID.may_load(deps.storage)?.unwrap_or(1);
            let payment = Payment {
                payer: info.sender.clone(),
                recipient: deps.api.addr_validate(&recipient)?,
                amount,
                memo: memo.unwrap_or_default(),
            };
            PAYMENTS.save(deps.storage, id, &payment)?;
            RECEIPTS.save(deps.storage, receipt_key, &id)?;
            NEXT_ID.save(deps.storage, &(id + 1))?;

            let denom = DENOM.load(deps.storage)?;
            Ok(Response::new()
                .add_message(BankMsg::Send {
                    to_address: payment.recipient.to_string(),
                    amount: vec![Coin { denom, amount }],
                })
                .add_attribute("action", "pay")
                .add_attribute("payment_id", id.to_string()))
        }
    }
}

#[entry_point]
pub fn query(deps: Deps, _env: Env, msg: QueryMsg) -> StdResult<Binary> {
    match msg {
        QueryMsg::Payment { id } => to_json_binary(&PAYMENTS.load(deps.storage, id)?),
    }
}
