use std::sync::RwLock;
use std::time::Duration;

use expiringmap::ExpiringMap;
use gimbal::{Ctx, Reply};
use serde::Deserialize;
use uuid::Uuid;

use crate::exports::{ExportJob, Exporter};

#[derive(Deserialize)]
pub struct ExportParams {
    pub from: String,
    pub to: String,
    pub tz: Option<String>,
}

pub struct Exports {
    jobs: RwLock<ExpiringMap<String, Uuid>>,
    downloads: RwLock<ExpiringMap<Uuid, String>>,
    exporter: Exporter,
}

impl Exports {
    pub fn start(&self, ctx: Ctx, params: ExportParams) -> Reply {
        let auth = ctx.auth();
        let tz = params.tz.as_deref().unwrap_or("UTC");

        let slot = ctx
            .header("Idempotency-Key")
            .map(|k| [auth.tenant_id.as_str(), auth.user_id.as_str(), "exports.create", k].join("|"));
        let Some(slot) = slot else {
            return Reply::status(400);
        };

        if let Some(existing) = self.jobs.read().unwrap().get(&slot) {
            return Reply::accepted(existing.to_string());
        }

        let export_id = Uuid::new_v4();
        let job = ExportJob {
            id: export_id,
            tenant_id: auth.tenant_id.clone(),
            from: params.from,
            to: params.to,
            tz: tz.to_owned(),
        };
        self.exporter.enqueue(job);
        self.jobs
            .write()
            .unwrap()
            .insert(slot, export_id, Duration::from_secs(3600));
        Reply::accepted(export_id.to_string())
    }

    pub fn finished(&self, export_id: Uuid, url: String) {
        self.downloads
            .write()
            .unwrap()
            .insert(export_id, url, Duration::from_secs(24 * 3600));
    }

    pub fn download(&self, ctx: Ctx, export_id: &str) -> Reply {
        let Ok(export_id) = Uuid::parse_str(export_id) else {
            return Reply::status(404);
        };
        match self.downloads.read().unwrap().get(&export_id) {
            Some(url) => Reply::redirect(url),
            None => Reply::status(if ctx.auth().is_admin { 404 } else { 403 }),
        }
    }
}
