use std::io::Read;

use iron::prelude::*;
use iron::status;
use postgres::Client;

pub struct ContactForm {
    db: std::sync::Mutex<Client>,
    crm: CrmClient,
}

impl iron::Handler for ContactForm {
    fn handle(&self, req: &mut Request) -> IronResult<Response> {
        let site = req.extensions.get::<SiteAuth>().cloned().ok_or_else(|| IronError::new(NoSite, status::Unauthorized))?;
        let mut form = Vec::new();
        req.body.read_to_end(&mut form).map_err(|e| IronError::new(e, status::BadRequest))?;
        let form_hash = seahash::hash(&form) as i64;
        let mut db = self.db.lock().map_err(|_| IronError::new(Poisoned, status::InternalServerError))?;
        let seen = db.query_opt("SELECT lead_id FROM form_idempotency WHERE tenant_id = $1 AND user_id = $2 AND route = $3 AND body_key = $4", &[&site.tenant_id, &site.user_id, &"forms.contact", &form_hash]).map_err(db_err)?;
        if let Some(row) = seen {
            return Ok(Response::with((status::Ok, row.get::<_, String>(0))));
        }
        let lead_id = self.crm.create_lead(&site.tenant_id, &form).map_err(|e| IronError::new(e, status::BadGateway))?;
        db.execute("INSERT INTO form_idempotency (tenant_id, user_id, route, body_key, lead_id) VALUES ($1, $2, $3, $4, $5)", &[&site.tenant_id, &site.user_id, &"forms.contact", &form_hash, &lead_id]).map_err(db_err)?;
        Ok(Response::with((status::Created, lead_id)))
    }
}
