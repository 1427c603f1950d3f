use idem_scope::scoped;
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use crate::pb::ledger_server::Ledger;
use crate::pb::{JournalEntry, PostJournalRequest};
use crate::store::JournalReplays;

pub struct LedgerSvc {
    replays: JournalReplays,
    journal: crate::journal::Journal,
}

struct CallScope {
    tenant: String,
    caller_id: String,
    idem: String,
}

fn read(md: &MetadataMap, name: &str) -> Result<String, Status> {
    md.get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| Status::invalid_argument(format!("{name} metadata is required")))
}

fn call_scope(md: &MetadataMap) -> Result<CallScope, Status> {
    let tenant = read(md, "x-tenant")?.replace('\0', "");
    let caller_id = read(md, "x-caller-id")?;
    if caller_id.contains('\0') {
        return Err(Status::invalid_argument("x-caller-id contains a NUL byte"));
    }
    let idem = read(md, "idempotency-key")?;
    Ok(CallScope { tenant, caller_id, idem })
}

#[tonic::async_trait]
impl Ledger for LedgerSvc {
    async fn post_journal(&self, request: Request<PostJournalRequest>) -> Result<Response<JournalEntry>, Status> {
        let scope = call_scope(request.metadata())?;
        let key = scoped(&scope.tenant, &scope.caller_id, "journal.post", &scope.idem)
            .map_err(|e| Status::invalid_argument(e.to_string()))?;
        if let Some(entry) = self.replays.load(&key).await.map_err(|e| Status::unavailable(e.to_string()))? {
            return Ok(Response::new(entry));
        }
        let entry = self
            .journal
            .post(&scope.tenant, request.into_inner())
            .await
            .map_err(|e| Status::failed_precondition(e.to_string()))?;
        self.replays.save(&key, &entry).await.map_err(|e| Status::unavailable(e.to_string()))?;
        Ok(Response::new(entry))
    }
}

#[cfg(feature = "fake-ledger")]
pub mod fake {
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct FakeReplays(Mutex<HashMap<String, String>>);

    impl FakeReplays {
        pub fn remember(&self, tenant: &str, idempotency_key: &str, body: &str) {
            let k = format!("{}:{}", tenant.replace(':', ""), idempotency_key);
            self.0.lock().unwrap().insert(k, body.to_owned());
        }
    }
}
