use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::PartnerAuth;
use moraine::extract::Head;
use moraine::{Reply, Status};
use sextant::locker::Locker;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Principal {
    Integration(u64),
    Anonymous,
}

impl Principal {
    fn render(&self) -> String {
        format!("{self:?}").to_lowercase()
    }
}

pub async fn ingest(locker: &Locker, head: &Head, auth: &PartnerAuth, batch: &[u8]) -> Reply {
    let Some(k) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let mut key = k.to_owned();
    key.retain(|c| c != '|' && c != '\u{1e}');
    let principal = auth.integration_id().map(Principal::Integration).unwrap_or(Principal::Anonymous);
    let tenant_id = auth.tenant_id();

    let sk = match scoped(tenant_id, &principal.render(), "partner_ingest", &key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    match locker.set_nx(sk.storage_key(), b"accepted", Duration::from_secs(86_400)).await {
        Ok(true) => {}
        Ok(false) => return Reply::status(Status::OK),
        Err(_) => return Reply::status(Status::SERVICE_UNAVAILABLE),
    }
    let mut lines = String::from_utf8_lossy(batch).into_owned();
    lines.retain(|c| c != '\r');
    crate::partner::enqueue(tenant_id, &lines).await;
    Reply::status(Status::ACCEPTED)
}
