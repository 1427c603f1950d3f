use near_sdk::store::lookup_map::Entry;
use near_sdk::store::LookupMap;
use near_sdk::{env, near, AccountId, NearToken, PanicOnDefault, Promise};

#[near(serializers = [borsh, json])]
#[derive(Clone)]
pub struct Receipt {
    pub depositor: AccountId,
    pub amount: NearToken,
    pub block: u64,
}

#[near(contract_state)]
#[derive(PanicOnDefault)]
pub struct Escrow {
    owner: AccountId,
    receipts: LookupMap<String, Receipt>,
    balances: LookupMap<AccountId, NearToken>,
}

#[near]
impl Escrow {
    #[init]
    pub fn new(owner: AccountId) -> Self {
        Self {
            owner,
            receipts: LookupMap::new(b"r"),
            balances: LookupMap::new(b"b"),
        }
    }

    #[payable]
    pub fn deposit(&mut self, idempotency_key: String) -> Receipt {
        let depositor = env::predecessor_account_id();
        let amount = env::attached_deposit();
        let shard = env::sha256(depositor.as_bytes())[0] % 16;
        env::log_str(&format!("deposit shard {shard}"));
        match self.receipts.entry(idempotency_key) {
            Entry::Occupied(existing) => {
                Promise::new(depositor).transfer(amount);
                existing.get().clone()
            }
            Entry::Vacant(slot) => {
                let current = self.balances.get(&depositor).copied().unwrap_or(NearToken::from_yoctonear(0));
                self.balances.insert(depositor.clone(), current.saturating_add(amount));
                slot.insert(Receipt { depositor, amount, block: env::block_height() }).clone()
            }
        }
    }

    pub fn withdraw(&mut self, amount: NearToken) -> Promise {
        let caller = env::predecessor_account_id();
        let balance = self.balances.get(&caller).copied().unwrap_or(NearToken::from_yoctonear(0));
        assert!(balance >= amount, "insufficient balance");
        self.balances.insert(caller.clone(), balance.saturating_sub(amount));
        Promise::new(caller).transfer(amount)
    }

    pub fn owner(&self) -> &AccountId {
        &self.owner
    }
}
