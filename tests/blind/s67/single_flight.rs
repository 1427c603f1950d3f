use std::collections::HashMap;
use std::sync::Mutex;

use dunlin::kv::BlockingKv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::blocking::{Request, Response};

pub struct ReportCache {
    pub kv: BlockingKv,
    pub building: Mutex<HashMap<String, u64>>,
}

impl ReportCache {
    pub fn rebuild(&self, tenant_id: &str) -> Result<(), String> {
        let mut guard = self.building.try_lock().map_err(|_| "busy".to_string())?;
        let gen = guard.entry(tenant_id.to_owned()).or_insert(0);
        *gen += 1;
        let report = crate::reports::build(tenant_id).map_err(|e| e.to_string())?;
        self.kv.put(&format!("report/{}", tenant_id), report).map_err(|e| e.to_string())?;
        Ok(())
    }

    pub fn export(&self, req: &Request, caller: &Caller) -> Response {
        let Some(key) = req.header("Idempotency-Key") else { return Response::status(400) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "report.export", key) else {
            return Response::status(400);
        };
        if !self.kv.claim(sk.storage_key()).unwrap_or(false) {
            return Response::status(409);
        }
        let export = crate::reports::export(caller).map_err(|e| {
            self.kv.release(sk.storage_key()).ok();
            e
        });
        let Ok(export) = export else { return Response::status(500) };
        self.kv.complete(sk.storage_key(), export.clone()).ok();
        Response::ok(export)
    }
}
