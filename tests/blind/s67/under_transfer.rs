use dunlin::kv::BlockingKv;
use idem_scope::Problem;
use under::{HttpEntity, Request, Response};

pub struct TransferEndpoint {
    pub kv: BlockingKv,
}

fn transfer_slot(tenant: &str, user: &str, route: &str, client_key: &str) -> String {
    let mut key = String::with_capacity(tenant.len() + user.len() + client_key.len() + 16);
    key.push_str(tenant);
    key.push('\u{1e}');
    key.push_str(user);
    key.push('\u{1e}');
    key.push_str(route);
    key.push('\u{1e}');
    key.push_str(client_key);
    key
}

impl TransferEndpoint {
    pub async fn post(&self, mut req: Request) -> Result<Response, Box<dyn std::error::Error + Send + Sync>> {
        let tenant = req.ext::<crate::auth::Tenant>().id.clone();
        let user = req.ext::<crate::auth::User>().id.clone();
        let client_key = match req.header("Idempotency-Key") {
            Some(v) => v.to_str()?.to_owned(),
            None => {
                let p = Problem::missing_key();
                return Ok(Response::json(&p.to_json()).with_status(p.status()));
            }
        };
        let slot = transfer_slot(&tenant, &user, "transfer", &client_key);
        if let Some(prev) = self.kv.get(&slot)? {
            return Ok(Response::json(&prev));
        }
        let body = req.as_text().await?;
        let transfer = crate::transfers::execute(&tenant, &user, &body)?;
        self.kv.put(&slot, transfer.to_json())?;
        let location = format!("/v2/transfers/{}", transfer.id);
        Ok(Response::json(&transfer.to_json()).with_status(201).with_header("Location", location))
    }
}
