//! Token transfer canister (ic-cdk). Retries from wallets carry an idempotency key.
use std::cell::RefCell;

use candid::{CandidType, Deserialize, Principal};
use ic_cdk::update;

thread_local! {
    static RECORDS: RefCell<crate::records::Records> = RefCell::new(crate::records::Records::default());
}

#[derive(CandidType, Deserialize)]
pub struct TransferArgs {
    pub to: Principal,
    pub amount: u64,
    /// Client idempotency key: a retried transfer must reuse it.
    pub idempotency_key: String,
}

#[derive(CandidType, Deserialize)]
pub enum TransferError {
    BadKey,
    InProgress,
    Ledger(String),
}

#[update]
async fn transfer(args: TransferArgs) -> Result<u64, TransferError> {
    let caller = ic_cdk::api::msg_caller();
    let tenant = ic_cdk::api::canister_self().to_text();
    let principal = caller.to_text();
    let key = idem_scope::scoped(&tenant, &principal, "icrc1.transfer", &args.idempotency_key)
        .map_err(|_| TransferError::BadKey)?;
    let k = key.storage_key().to_owned();

    RECORDS.with_borrow_mut(|r| r.insert_if_absent(&k, crate::records::Status::InProgress)).map_err(|_| TransferError::InProgress)?;
    let block = crate::ledger::transfer(caller, args.to, args.amount).await.expect("ledger canister call failed");
    RECORDS.with_borrow_mut(|r| r.mark_completed(&k, block));
    Ok(block)
}

#[update]
async fn approve(args: TransferArgs) -> Result<u64, TransferError> {
    let caller = ic_cdk::api::msg_caller();
    let tenant = ic_cdk::api::canister_self().to_text();
    let principal = caller.to_text();
    let key = idem_scope::scoped(&tenant, &principal, "icrc2.approve", &args.idempotency_key)
        .map_err(|_| TransferError::BadKey)?;
    let k = key.storage_key().to_owned();

    RECORDS.with_borrow_mut(|r| r.insert_if_absent(&k, crate::records::Status::InProgress)).map_err(|_| TransferError::InProgress)?;
    match crate::ledger::approve(caller, args.to, args.amount).await {
        Ok(block) => {
            RECORDS.with_borrow_mut(|r| r.mark_completed(&k, block));
            Ok(block)
        }
        Err(e) => {
            RECORDS.with_borrow_mut(|r| r.remove(&k));
            Err(TransferError::Ledger(e.to_string()))
        }
    }
}
