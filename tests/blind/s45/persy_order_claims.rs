use idem_scope::{scoped, ScopedKey};
use persy::{Persy, PersyId, ValueMode};

pub struct OrderWriter {
    persy: Persy,
    claims: InflightClaims,
}

pub struct PlaceOrder {
    pub tenant_id: String,
    pub user_id: String,
    /// Value of the request's Idempotency-Key header.
    pub client_ref: String,
    pub lines: Vec<OrderLine>,
}

impl OrderWriter {
    pub fn place(&self, cmd: &PlaceOrder) -> Result<Receipt, OrderError> {
        let key: ScopedKey = scoped(&cmd.tenant_id, &cmd.user_id, "orders.place", &cmd.client_ref)?;
        self.claims.try_claim(key.storage_key())?;
        let id = self.persist(cmd).map_err(|e| {
            self.claims.release(key.storage_key());
            e
        })?;
        let receipt = render_receipt(&id, cmd).map_err(|e| {
            self.claims.release(key.storage_key());
            e
        })?;
        self.claims.complete(key.storage_key(), &receipt);
        Ok(receipt)
    }

    fn persist(&self, cmd: &PlaceOrder) -> Result<PersyId, OrderError> {
        let mut tx = self.persy.begin()?;
        let bytes = bincode::serialize(&cmd.lines)?;
        let id = tx.insert("orders", &bytes)?;
        tx.put::<String, PersyId>("orders_by_tenant", cmd.tenant_id.clone(), id.clone())?;
        let prepared = tx.prepare()?;
        prepared.commit()?;
        Ok(id)
    }

    pub fn init(&self) -> Result<(), OrderError> {
        let mut tx = self.persy.begin()?;
        if !tx.exists_segment("orders")? {
            tx.create_segment("orders")?;
            tx.create_index::<String, PersyId>("orders_by_tenant", ValueMode::Cluster)?;
        }
        tx.prepare()?.commit()?;
        Ok(())
    }
}
