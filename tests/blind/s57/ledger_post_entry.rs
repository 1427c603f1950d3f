use std::sync::{Arc, RwLock};

use rkv::backend::{SafeModeDatabase, SafeModeEnvironment};
use rkv::{Rkv, SingleStore, Value};
use rwf::prelude::*;

use crate::ledger::{Entry, LedgerWriter};
use crate::session::current_account;

pub struct PostEntry {
    env: Arc<RwLock<Rkv<SafeModeEnvironment>>>,
    replays: SingleStore<SafeModeDatabase>,
    writer: LedgerWriter,
}

fn storage_slot(account_id: &str, user_id: &str, operation: &str, raw: &str) -> String {
    let mut s = String::with_capacity(account_id.len() + user_id.len() + operation.len() + raw.len() + 3);
    s.push_str(account_id);
    s.push('\u{1f}');
    s.push_str(user_id);
    s.push('\u{1f}');
    s.push_str(operation);
    s.push('\u{1f}');
    s.push_str(raw);
    s
}

#[async_trait]
impl Controller for PostEntry {
    async fn handle(&self, request: &Request) -> Result<Response, Error> {
        let session = current_account(request)?;
        let raw = match request.header("idempotency-key") {
            Some(v) => v.trim().to_string(),
            None => return Ok(Response::bad_request()),
        };
        let slot = storage_slot(&session.account_id, &session.user_id, "ledger.post", &raw);

        {
            let env = self.env.read().map_err(|_| Error::new("rkv lock poisoned"))?;
            let reader = env.read()?;
            if let Some(Value::Blob(prev)) = self.replays.get(&reader, &slot)? {
                return Ok(Response::new().header("idempotent-replayed", "true").json_raw(prev));
            }
        }

        let entry: Entry = request.json()?;
        let posted = self.writer.post(&session.account_id, entry).await?;
        let body = serde_json::to_vec(&posted)?;

        let env = self.env.read().map_err(|_| Error::new("rkv lock poisoned"))?;
        let mut writer = env.write()?;
        self.replays.put(&mut writer, &slot, &Value::Blob(&body))?;
        writer.commit()?;

        Ok(Response::new().code(201).json_raw(&body))
    }
}
