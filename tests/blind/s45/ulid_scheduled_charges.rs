use idem_scope::{scoped, scoped_server, Problem};
use ulid::Ulid;

pub struct Billing {
    charge_records: ChargeRecords,
    psp: Psp,
}

pub struct ScheduledCharge {
    pub tenant_id: String,
    pub user_id: String,
    pub amount_minor: i64,
}

impl Billing {
    pub async fn charge_now(&self, headers: &[(String, String)], tenant_id: &str, user_id: &str, amount_minor: i64) -> Result<String, Problem> {
        let pay_ref = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.as_str()).ok_or_else(Problem::missing_key)?;
        let key = scoped(tenant_id, user_id, "charges.create", pay_ref).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        if let Some(id) = self.charge_records.lookup(&key).await {
            return Ok(id);
        }
        let id = self.psp.charge(tenant_id, amount_minor).await;
        self.charge_records.save(&key, &id).await;
        Ok(id)
    }

    /// Cron tick: every scheduled charge gets its own attempt id.
    pub async fn run_schedule(&self, due: Vec<ScheduledCharge>) {
        for c in due {
            let id = self.psp.charge(&c.tenant_id, c.amount_minor).await;
            if let Ok(key) = scoped(&c.tenant_id, &c.user_id, "charges.create", &Ulid::new().to_string()) {
                self.charge_records.save(&key, &id).await;
            }
        }
    }

    /// Dunning retries are recorded under the server namespace.
    pub async fn run_dunning(&self, due: Vec<ScheduledCharge>) {
        for c in due {
            let id = self.psp.charge(&c.tenant_id, c.amount_minor).await;
            if let Ok(key) = scoped_server(&c.tenant_id, &c.user_id, "charges.create", &Ulid::new().to_string()) {
                self.charge_records.save(&key, &id).await;
            }
        }
    }
}
