use std::fmt::Write as _;

use cobble::vault::Vault;
use idem_scope::Problem;
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct Ticket {
    pub subject: String,
    pub body: String,
    pub priority: u8,
}

struct TicketKey {
    buf: String,
}

impl TicketKey {
    fn new(tenant: &str, user: &str) -> Self {
        let mut buf = String::with_capacity(96);
        let _ = write!(buf, "{tenant}\u{1f}{user}\u{1f}support.ticket");
        TicketKey { buf }
    }

    fn with_client_key(mut self, k: &str) -> String {
        let _ = write!(self.buf, "\u{1f}{}", k);
        self.buf
    }
}

pub async fn open_ticket(ex: Exchange, caller: Caller, Json(t): Json<Ticket>, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let key = TicketKey::new(&caller.tenant_id, &caller.user_id).with_client_key(raw);
    if let Some(prev) = vault.get(&key).await.map_err(|_| down())? {
        return Ok(Reply::from_stored(prev));
    }
    let mut summary = String::new();
    let _ = write!(summary, "[P{}] {} (key {})", t.priority, t.subject, raw);
    vault.put(&key, summary.as_bytes()).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Created))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
