//! Ledger adapter on Aerospike. Called from the posting service (other crate).
use aerospike::{as_bin, Bins, Client, Key, ReadPolicy, Value, WritePolicy};

pub struct Ledger {
    client: Client,
    namespace: String,
}

impl Ledger {
    /// Records the outcome of a ledger post so that a retried post replays it.
    pub fn remember_post(
        &self,
        account_id: &str,
        actor: &str,
        idempotency_key: &str,
        outcome: &str,
    ) -> aerospike::Result<()> {
        let operation = "post_entry";
        let user_key = format!("{account_id}/{actor}/{operation}/{idempotency_key}");
        let key = Key::new(self.namespace.as_str(), "idem", Value::from(user_key))?;
        let bins = [as_bin!("outcome", outcome)];
        self.client.put(&WritePolicy::default(), &key, &bins)
    }

    pub fn balance(&self, account_id: &str) -> aerospike::Result<i64> {
        let key = Key::new(
            self.namespace.as_str(),
            "balances",
            Value::from(format!("acct/{account_id}")),
        )?;
        let rec = self
            .client
            .get(&ReadPolicy::default(), &key, Bins::from(["amount"]))?;
        Ok(rec.bins.get("amount").and_then(|v| v.as_i64()).unwrap_or(0))
    }

    pub fn shard_for(&self, account_id: &str) -> u32 {
        let h = seahash::hash(account_id.as_bytes());
        (h % 64) as u32
    }
}
