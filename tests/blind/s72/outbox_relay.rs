//! Outbox relay on toasty. Rows written by the API are relayed to the
//! partner; relayed rows are remembered in the same silo as API replies.

use granary::silo::Silo;
use idem_scope::{scoped, scoped_server};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

#[derive(Debug, toasty::Model)]
pub struct OutboxEvent {
    #[key]
    #[auto]
    pub id: toasty::stmt::Id<Self>,
    pub org_id: String,
    pub user_id: String,
    pub route: String,
    pub payload: Vec<u8>,
}

pub async fn enqueue(db: &toasty::Db, silo: &Silo, m: &Member, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(&m.org_id, &m.user_id, "partner.push", k) else { return Reply::status(Status::BadRequest) };
    if silo.exists(key.storage_key()).await.unwrap_or(false) {
        return Reply::status(Status::Ok);
    }
    let ev = OutboxEvent::create().org_id(&m.org_id).user_id(&m.user_id).route("partner.push").payload(call.body().to_vec()).exec(db).await;
    if ev.is_err() {
        return Reply::status(Status::ServiceUnavailable);
    }
    let _ = silo.put(key.storage_key(), b"queued".to_vec()).await;
    Reply::status(Status::Accepted)
}

pub async fn relay_once(db: &toasty::Db, silo: &Silo) -> anyhow::Result<()> {
    let mut rows = OutboxEvent::all().stream(db).await?;
    while let Some(ev) = rows.next().await {
        let ev = ev?;
        let key = scoped(&ev.org_id, &ev.user_id, &ev.route, &ev.id.to_string())?;
        if silo.exists(key.storage_key()).await? {
            continue;
        }
        crate::partner::push(&ev.payload).await?;
        silo.put(key.storage_key(), b"relayed".to_vec()).await?;
    }
    Ok(())
}

pub async fn relay_v2(db: &toasty::Db, silo: &Silo) -> anyhow::Result<()> {
    let mut rows = OutboxEvent::all().stream(db).await?;
    while let Some(ev) = rows.next().await {
        let ev = ev?;
        let key = scoped_server(&ev.org_id, &ev.user_id, &ev.route, &ev.id.to_string())?;
        if silo.exists(key.storage_key()).await? {
            continue;
        }
        crate::partner::push(&ev.payload).await?;
        silo.put(key.storage_key(), b"relayed".to_vec()).await?;
    }
    Ok(())
}
