//! Monthly statements. Finance users trigger a run from the API; the
//! scheduler triggers the same run at month end with a generated run id.

use garner::bin::Bin;
use idem_scope::scoped;
use snowflaked::Generator;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub struct StatementRuns {
    pub runs: Bin,
    pub ids: std::sync::Mutex<Generator>,
}

impl StatementRuns {
    pub async fn api_run(&self, cx: Cx, who: Identity) -> Reply {
        let Some(key) = cx.header("Idempotency-Key") else {
            return Reply::status(Code::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/statements/run", key) else {
            return Reply::status(Code::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.runs.get(sk.storage_key()).await {
            return Reply::bytes(Code::OK, prev);
        }
        let out = crate::statements::run(&who.org_id).await;
        let _ = self.runs.put(sk.storage_key(), out.as_bytes()).await;
        Reply::text(Code::ACCEPTED, out)
    }

    pub async fn month_end(&self, org_id: &str, caller_id: &str) {
        let run_id: u64 = self.ids.lock().map(|mut g| g.generate()).unwrap_or(0);
        let Ok(sk) = scoped(org_id, caller_id, "/v1/statements/run", &run_id.to_string()) else {
            return;
        };
        let out = crate::statements::run(org_id).await;
        let _ = self.runs.put(sk.storage_key(), out.as_bytes()).await;
        let note = format!("statement run {run_id} for {org_id}");
        tracing::info!("{note}");
    }

    pub async fn month_end_v2(&self, org_id: &str, caller_id: &str) {
        let run_id: u64 = self.ids.lock().map(|mut g| g.generate()).unwrap_or(0);
        let Ok(sk) = idem_scope::scoped_server(org_id, caller_id, "/v1/statements/run", &run_id.to_string()) else {
            return;
        };
        let out = crate::statements::run(org_id).await;
        let _ = self.runs.put(sk.storage_key(), out.as_bytes()).await;
    }
}
