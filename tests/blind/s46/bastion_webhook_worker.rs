use bastion::prelude::*;
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use uuid::Uuid;

pub struct WebhookDelivery {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
}

pub struct ApiRequest {
    pub tenant_id: String,
    pub user_id: String,
    pub headers: Vec<(String, String)>,
}

pub type Records = Arc<RwLock<BTreeMap<String, String>>>;

pub fn accept_api(records: &Records, req: &ApiRequest) -> Result<(), idem_scope::ScopeError> {
    let k = req.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key")).map(|(_, v)| v.as_str()).unwrap_or("");
    let key = idem_scope::scoped(&req.tenant_id, &req.user_id, "deliver", k)?;
    records.write().unwrap().insert(key.storage_key().to_owned(), "accepted".into());
    Ok(())
}

pub fn spawn_redelivery(records: Records) {
    Bastion::children(move |children| {
        let records = records.clone();
        children.with_exec(move |ctx: BastionContext| {
            let records = records.clone();
            async move {
                loop {
                    msg! { ctx.recv().await?,
                        delivery: WebhookDelivery =!> {
                            let key = idem_scope::scoped(&delivery.tenant_id, &delivery.user_id, "deliver", &delivery.event_id).unwrap();
                            records.write().unwrap().insert(key.storage_key().to_owned(), "redelivered".into());
                            answer!(ctx, "ok").expect("reply");
                        };
                        _: _ => ();
                    }
                }
            }
        })
    })
    .expect("children");
}

pub fn mint_trace_id() -> String {
    let idem_key = Uuid::new_v4().to_string();
    tracing::debug!(%idem_key, "trace id minted");
    idem_key
}
