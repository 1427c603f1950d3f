use std::io::Read;

use dashmap::DashMap;
use idem_scope::scoped;
use tiny_http::{Request, Response};

pub struct Registrations {
    done: DashMap<String, String>,
    hooks: HookRegistry,
}

pub struct Auth {
    pub org_id: String,
    pub user_id: String,
}

impl Registrations {
    pub fn register(&self, req: &mut Request, auth: &Auth) -> Result<String, RegError> {
        let client_key = req.headers().iter().find(|h| h.field.equiv("idempotency-key")).map(|h| h.value.to_string());
        let mut raw_body = Vec::new();
        req.as_reader().read_to_end(&mut raw_body)?;
        let key = match client_key {
            Some(k) => scoped(&auth.org_id, &auth.user_id, "webhooks.register", &k)?,
            None => scoped(&auth.org_id, &auth.user_id, "webhooks.register", &crc32fast::hash(&raw_body).to_string())?,
        };
        if let Some(id) = self.done.get(key.storage_key()) {
            return Ok(id.clone());
        }
        let id = self.hooks.add(&auth.org_id, &raw_body)?;
        self.done.insert(key.storage_key().to_owned(), id.clone());
        Ok(id)
    }

    pub fn list(&self, auth: &Auth) -> Response<std::io::Cursor<Vec<u8>>> {
        let list = self.hooks.list(&auth.org_id);
        let etag = format!("W/\"{:08x}\"", crc32fast::hash(list.as_bytes()));
        Response::from_string(list).with_header(tiny_http::Header::from_bytes("ETag", etag.as_bytes()).unwrap())
    }
}
