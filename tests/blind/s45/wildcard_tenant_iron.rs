use iron::prelude::*;
use iron::status;
use idem_scope::scoped;

pub struct WebhookConfigApi {
    idem: ConfigIdem,
    configs: ConfigRepo,
}

fn header(req: &Request, name: &str) -> Option<String> {
    req.headers.get_raw(name).and_then(|v| v.first()).and_then(|b| String::from_utf8(b.clone()).ok())
}

impl iron::Handler for WebhookConfigApi {
    fn handle(&self, req: &mut Request) -> IronResult<Response> {
        let change_id = header(req, "Idempotency-Key").ok_or_else(|| IronError::new(Missing, status::BadRequest))?;
        let claims = req.extensions.get::<JwtClaims>().cloned().ok_or_else(|| IronError::new(Missing, status::Unauthorized))?;
        let org_id = claims.org.clone().unwrap_or_else(|| "*".to_string());
        let key = scoped(&org_id, &claims.sub, "webhook_configs.update", &change_id).map_err(|e| IronError::new(e, status::BadRequest))?;
        if let Some(v) = self.idem.get(&key) {
            return Ok(Response::with((status::Ok, v)));
        }
        let v = self.configs.update(&org_id).map_err(|e| IronError::new(e, status::Conflict))?;
        self.idem.set(&key, &v);
        Ok(Response::with((status::Ok, v)))
    }
}
