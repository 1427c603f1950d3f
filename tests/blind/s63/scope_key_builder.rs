use std::sync::Arc;
use std::time::Duration;

use cistern::lease::Leases;
use cistern::vat::SyncVat;
use idem_scope::Problem;
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

const SEP: &str = "\u{1e}";

#[derive(Debug)]
pub struct BadPart(&'static str);

pub struct KeyParts {
    parts: Vec<String>,
}

impl KeyParts {
    pub fn new() -> Self {
        Self { parts: vec!["v1".to_owned()] }
    }

    fn push_checked(&mut self, what: &'static str, part: &str) -> Result<(), BadPart> {
        if part.is_empty() || part.contains(SEP) {
            return Err(BadPart(what));
        }
        self.parts.push(part.to_owned());
        Ok(())
    }

    pub fn tenant(mut self, tenant_id: &str) -> Result<Self, BadPart> {
        self.push_checked("tenant", tenant_id)?;
        Ok(self)
    }

    pub fn principal(mut self, user_id: &str) -> Result<Self, BadPart> {
        self.push_checked("principal", user_id)?;
        Ok(self)
    }

    pub fn route(mut self, route: &str) -> Result<Self, BadPart> {
        self.push_checked("route", route)?;
        Ok(self)
    }

    pub fn client_key(mut self, key: &str) -> Result<Self, BadPart> {
        self.push_checked("key", key)?;
        Ok(self)
    }

    pub fn build(self) -> String {
        self.parts.join(SEP)
    }
}

pub struct Exports {
    vat: Arc<SyncVat>,
    leases: Arc<Leases>,
    reports: Arc<reports::Renderer>,
}

impl Exports {
    pub fn export_report(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let slot = KeyParts::new()
            .tenant(&caller.tenant_id)
            .and_then(|b| b.principal(&caller.user_id))
            .and_then(|b| b.route("export_report"))
            .and_then(|b| b.client_key(key))
            .map_err(|BadPart(what)| Problem::invalid_key(what))?
            .build();

        if let Some(done) = self.vat.get(&slot) {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let pdf = self.reports.render(&caller.tenant_id).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.vat.put(&slot, pdf.clone());
        Ok(Reply::bytes(Status::CREATED, pdf))
    }

    pub fn nightly_rollup(&self, caller: &Caller) -> Result<(), reports::Error> {
        let lease_name = ["export-lease", caller.tenant_id.as_str(), "nightly"].join(":");
        let Some(lease) = self.leases.acquire(&lease_name, Duration::from_secs(600)) else {
            return Ok(());
        };
        let result = self.reports.rollup(&caller.tenant_id);
        self.leases.release(lease);
        result
    }
}
