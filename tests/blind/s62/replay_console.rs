use std::sync::Arc;

use argh::FromArgs;
use idem_scope::Problem;
use quarry::tuple::{TupleEntry, TupleStore};
use wicket::auth::Caller;
use wicket::extract::RawBody;
use wicket::{Ctx, Reply, Status};

/// Re-drive failed submissions from the dead-letter table.
#[derive(FromArgs)]
pub struct ReplayArgs {
    /// tenant whose dead letters are replayed
    #[argh(option)]
    pub tenant: String,
    /// maximum number of events to replay
    #[argh(option, default = "100")]
    pub limit: usize,
}

pub struct DeadLetter {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub route: String,
    pub body: Vec<u8>,
}

pub struct Submissions {
    journal: Arc<TupleStore>,
    backend: filings::Backend,
    dead_letters: filings::DeadLetters,
}

impl Submissions {
    pub async fn submit(&self, ctx: &Ctx, caller: &Caller, RawBody(body): RawBody) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let route = "filings.submit";
        if let Ok(Some(prev)) = self.journal.get(&caller.tenant_id, &caller.user_id, route, key).await {
            return Reply::bytes(Status::OK, prev);
        }
        let receipt = match self.backend.file(&caller.tenant_id, &body).await {
            Ok(r) => r,
            Err(e) => {
                self.dead_letters.push(&caller.tenant_id, &caller.user_id, route, &body, &e).await;
                return Reply::text(Status::ACCEPTED, "queued for retry".into());
            }
        };
        let _ = self.journal.put(&caller.tenant_id, &caller.user_id, route, key, receipt.to_bytes()).await;
        Reply::bytes(Status::CREATED, receipt.to_bytes())
    }

    pub async fn replay(&self, args: &ReplayArgs) -> anyhow::Result<usize> {
        let mut replayed = 0;
        for dl in self.dead_letters.pending(&args.tenant, args.limit).await? {
            match self.journal.entry(&dl.tenant_id, &dl.user_id, &dl.route, &format!("replay:{}", dl.event_id)).await {
                TupleEntry::Occupied(_) => continue,
                TupleEntry::Vacant(slot) => {
                    let receipt = self.backend.file(&dl.tenant_id, &dl.body).await?;
                    slot.insert(receipt.to_bytes()).await;
                }
            }
            self.dead_letters.ack(&dl.event_id).await?;
            replayed += 1;
        }
        Ok(replayed)
    }
}
