use croner::Cron;
use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct ReplayJob {
    pub replay_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub payload: Vec<u8>,
}

pub struct Statements {
    pub kv: Kv,
}

impl Statements {
    pub async fn request_statement(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else { return Reply::status(Status::BAD_REQUEST) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "statement.generate", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let st = crate::statements::generate(&caller.tenant_id, &caller.user_id, ctx.body()).await;
        self.kv.put(sk.storage_key(), st.to_bytes()).await.ok();
        Reply::json(Status::ACCEPTED, &st)
    }

    pub async fn run_replays(&self, schedule: &str, jobs: Vec<ReplayJob>) {
        let cron = Cron::new(schedule).parse().expect("valid schedule");
        let now = jiff::Zoned::now();
        if !cron.is_time_matching(&now).unwrap_or(false) {
            return;
        }
        for job in jobs {
            let Ok(sk) = scoped(&job.tenant_id, &job.user_id, "statement.generate", &format!("replay:{}", job.replay_id)) else { continue };
            if self.kv.exists(sk.storage_key()).await.unwrap_or(false) {
                continue;
            }
            let st = crate::statements::generate(&job.tenant_id, &job.user_id, &job.payload).await;
            self.kv.put(sk.storage_key(), st.to_bytes()).await.ok();
        }
    }
}
