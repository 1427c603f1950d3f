use etcd_client::{Client, Compare, CompareOp, LockOptions, PutOptions, Txn, TxnOp};
use idem_scope::scoped;
use ntex::web::{self, types::State, HttpRequest, HttpResponse};
use std::sync::Arc;
use tokio::sync::Mutex;

pub struct EtcdDeps {
    pub etcd: Arc<Mutex<Client>>,
}

fn h(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers().get(name)?.to_str().ok().map(|s| s.to_string())
}

#[web::get("/v1/replays")]
pub async fn replay_lookup(req: HttpRequest, st: State<EtcdDeps>) -> HttpResponse {
    let Some(key) = h(&req, "Idempotency-Key") else {
        return HttpResponse::BadRequest().finish();
    };
    let mut etcd = st.etcd.lock().await;
    match etcd.get(key.clone(), None).await {
        Ok(resp) => match resp.kvs().first() {
            Some(kv) => HttpResponse::Ok().body(kv.value().to_vec()),
            None => HttpResponse::NotFound().finish(),
        },
        Err(_) => HttpResponse::BadGateway().finish(),
    }
}

#[web::post("/v1/exports")]
pub async fn start_export(req: HttpRequest, st: State<EtcdDeps>) -> HttpResponse {
    let (Some(org), Some(actor), Some(key)) = (h(&req, "x-org-id"), h(&req, "x-actor-id"), h(&req, "Idempotency-Key")) else {
        return HttpResponse::BadRequest().finish();
    };
    let Ok(sk) = scoped(&org, &actor, "exports.start", &key) else {
        return HttpResponse::BadRequest().finish();
    };
    let storage_key = sk.storage_key().to_owned();
    let mut etcd = st.etcd.lock().await;
    let lease = match etcd.lease_grant(86_400, None).await {
        Ok(l) => l.id(),
        Err(_) => return HttpResponse::BadGateway().finish(),
    };
    let txn = Txn::new()
        .when(vec![Compare::create_revision(storage_key.clone(), CompareOp::Equal, 0)])
        .and_then(vec![TxnOp::put(storage_key.clone(), "queued", Some(PutOptions::new().with_lease(lease)))]);
    match etcd.txn(txn).await {
        Ok(r) if r.succeeded() => HttpResponse::Accepted().finish(),
        Ok(_) => HttpResponse::Conflict().finish(),
        Err(_) => HttpResponse::BadGateway().finish(),
    }
}

pub async fn compact_exports(etcd: &mut Client) -> Result<(), etcd_client::Error> {
    let lease = etcd.lease_grant(30, None).await?;
    let lock = etcd.lock("/locks/export-compactor", Some(LockOptions::new().with_lease(lease.id()))).await?;
    let listing = etcd.get("/exports/", Some(etcd_client::GetOptions::new().with_prefix())).await?;
    for kv in listing.kvs() {
        if kv.lease() == 0 {
            etcd.delete(kv.key(), None).await?;
        }
    }
    etcd.unlock(lock.key()).await?;
    Ok(())
}
