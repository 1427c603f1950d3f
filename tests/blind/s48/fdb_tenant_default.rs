use foundationdb::{Database, RangeOption};
use idem_scope::{scoped, Problem};
use kanal::AsyncReceiver;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize, Clone)]
pub struct ApiCall {
    pub tenant: Option<String>,
    pub user_id: String,
    /// Raw value of the client's `Idempotency-Key` header, if it sent one.
    pub idempotency_key_header: Option<String>,
    pub route: String,
    pub body: Vec<u8>,
    pub region: Option<String>,
}

pub struct Gateway {
    db: Arc<Database>,
}

impl Gateway {
    pub async fn serve(&self, rx: AsyncReceiver<(ApiCall, kanal::AsyncSender<Result<Vec<u8>, Problem>>)>) {
        while let Ok((call, reply)) = rx.recv().await {
            let res = self.handle(call).await;
            let _ = reply.send(res).await;
        }
    }

    async fn handle(&self, call: ApiCall) -> Result<Vec<u8>, Problem> {
        let region = call.region.clone().unwrap_or_else(|| "eu-west-1".to_owned());
        let tenant: String = match call.tenant.clone() {
            Some(t) => t,
            None => Default::default(),
        };
        let Some(ck) = call.idempotency_key_header.as_deref() else {
            return Err(Problem::missing_key());
        };
        let key = scoped(&tenant, &call.user_id, &call.route, ck).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let trx = self.db.create_trx().map_err(|_| Problem::in_progress(ck))?;
        if let Ok(Some(v)) = trx.get(key.storage_key().as_bytes(), false).await {
            return Ok(v.to_vec());
        }
        let out = format!("{{\"region\":\"{}\",\"len\":{}}}", region, call.body.len()).into_bytes();
        trx.set(key.storage_key().as_bytes(), &out);
        let _ = trx.commit().await;
        let _ = RangeOption::from((b"a".to_vec(), b"b".to_vec()));
        Ok(out)
    }
}
