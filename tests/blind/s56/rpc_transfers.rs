use std::sync::Arc;

use idem_scope::{scoped, Fingerprint};
use jsonrpc_v2::{Data, Error, Params, Server};
use serde::{Deserialize, Serialize};

const SHARED_TENANT: &str = "shared";

#[derive(Deserialize)]
pub struct TransferParams {
    pub tenant: Option<String>,
    pub user_id: String,
    pub from: String,
    pub to: String,
    pub amount_minor: i64,
    /// The client's idempotency key for this transfer (same role as the
    /// Idempotency-Key header on the REST API).
    pub idempotency_key: String,
    pub locale: Option<String>,
}

#[derive(Serialize, Clone)]
pub struct TransferResult {
    pub transfer_id: String,
    pub replayed: bool,
}

pub struct RpcState {
    pub replays: crate::replay_store::AsyncStore,
    pub ledger: crate::ledger::Ledger,
}

pub async fn transfer(Params(p): Params<TransferParams>, Data(state): Data<RpcState>) -> Result<TransferResult, Error> {
    let tenant = if let Some(t) = p.tenant.as_deref() {
        t.to_owned()
    } else {
        SHARED_TENANT.to_owned()
    };
    let sk = scoped(&tenant, &p.user_id, "transfers.create", &p.idempotency_key)
        .map_err(|e| Error::internal(e))?;
    let fp = Fingerprint::of("transfers.create", serde_json::to_string(&(&p.from, &p.to, p.amount_minor))?.as_bytes());

    if let Some(prev) = state.replays.get(sk.storage_key()).await.map_err(Error::internal)? {
        let mut res: TransferResult = crate::replay::decode(&prev, &fp).map_err(Error::internal)?;
        res.replayed = true;
        return Ok(res);
    }

    let message_locale = p.locale.clone().unwrap_or_else(|| "en-GB".to_owned());
    let id = state
        .ledger
        .transfer(&tenant, &p.from, &p.to, p.amount_minor, &message_locale)
        .await
        .map_err(Error::internal)?;
    let res = TransferResult { transfer_id: id, replayed: false };
    state
        .replays
        .put(sk.storage_key(), &crate::replay::encode(&res, &fp), std::time::Duration::from_secs(86_400))
        .await
        .map_err(Error::internal)?;
    Ok(res)
}

pub fn server(state: RpcState) -> Arc<Server<jsonrpc_v2::MapRouter>> {
    Server::new()
        .with_data(Data::new(state))
        .with_method("transfers.create", transfer)
        .finish()
}
