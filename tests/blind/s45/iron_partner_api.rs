use iron::prelude::*;
use iron::status;
use idem_scope::scoped;

const SYSTEM_TENANT: &str = "system";

pub struct PartnerApi {
    calls: PartnerCallStore,
    upstream: Upstream,
}

fn first_header(req: &Request, name: &str) -> Option<String> {
    req.headers.get_raw(name).and_then(|v| v.first()).and_then(|b| String::from_utf8(b.clone()).ok())
}

impl iron::Handler for PartnerApi {
    fn handle(&self, req: &mut Request) -> IronResult<Response> {
        let client_ref = first_header(req, "Idempotency-Key").ok_or_else(|| IronError::new(Missing("Idempotency-Key"), status::BadRequest))?;
        let partner = req.extensions.get::<PartnerAuth>().cloned();
        let tenant_id = partner.as_ref().and_then(|p| p.tenant_id.clone()).unwrap_or(SYSTEM_TENANT.to_owned());
        let caller_id = partner.as_ref().map(|p| p.client_id.clone()).ok_or_else(|| IronError::new(Missing("client"), status::Unauthorized))?;
        let key = scoped(&tenant_id, &caller_id, "partners.sync", &client_ref).map_err(|e| IronError::new(e, status::BadRequest))?;
        if let Some(prev) = self.calls.lookup(&key) {
            return Ok(Response::with((status::Ok, prev)));
        }
        let out = self.upstream.sync(&tenant_id).map_err(|e| IronError::new(e, status::BadGateway))?;
        self.calls.save(&key, &out);
        Ok(Response::with((status::Ok, out)))
    }
}
