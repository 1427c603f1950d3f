use cobble::vault::Vault;
use idem_scope::Problem;
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct Pledges {
    pub vault: Vault,
}

impl Pledges {
    pub async fn pledge(&self, ex: Exchange, caller: Caller, campaign: String, amount_minor: u64) -> Result<Reply, Reply> {
        let tenant = caller.tenant_id.as_str();
        let user = caller.user_id.as_str();
        let action = "pledge.create";
        let key = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))
            .map(|k| format!("{tenant}\x1f{user}\x1f{action}\x1f{k}"))?;
        if !self.vault.set_nx(&key, &amount_minor.to_be_bytes()).await.map_err(|_| down())? {
            return Ok(Reply::status(Status::Ok));
        }
        let tally = format!("tally:{tenant}:{campaign}");
        self.vault.incr_by(&tally, amount_minor).await.map_err(|_| down())?;
        Ok(Reply::status(Status::Created))
    }

    pub async fn thank(&self, ex: Exchange, caller: Caller) -> Result<Reply, Reply> {
        let k = ex.header("Idempotency-Key").unwrap_or("-");
        let note = format!("thanks {} for pledge {k}", caller.user_id);
        Ok(Reply::text(Status::Ok, note))
    }
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}

pub fn format_amount(amount_minor: u64, currency: &str) -> String {
    format!("{}.{:02} {}", amount_minor / 100, amount_minor % 100, currency)
}
