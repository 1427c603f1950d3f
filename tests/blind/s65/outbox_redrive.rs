use std::sync::Arc;

use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;
use tessera::sql::{Conn, Row};

use crate::notify::{Notice, Notifier};

const STUCK: &str = "SELECT event_id, tenant_id, actor_id, payload FROM notice_outbox WHERE sent_at IS NULL AND created_at < now() - interval '10 minutes' LIMIT 200";

pub struct NoticeService {
    kv: Arc<Kv>,
    conn: Arc<Conn>,
    notifier: Arc<Notifier>,
}

impl NoticeService {
    pub async fn send(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry)) = (ex.identity(), ex.header("Idempotency-Key")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "send_notice", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
            return Outcome::status(Status::OK);
        }
        let notice: Notice = match ex.json() {
            Ok(n) => n,
            Err(_) => return Outcome::status(Status::BAD_REQUEST),
        };
        self.notifier.send(&who.tenant_id, &notice).await;
        let _ = self.kv.put(key.storage_key(), b"sent".to_vec()).await;
        Outcome::status(Status::ACCEPTED)
    }

    pub async fn redrive(&self) -> Result<usize, String> {
        let rows: Vec<Row> = self.conn.query(STUCK).fetch_all().await.map_err(|e| e.to_string())?;
        let mut sent = 0;
        for row in rows {
            let event_id: String = row.get("event_id");
            let tenant_id: String = row.get("tenant_id");
            let actor_id: String = row.get("actor_id");
            let keyed = Some((tenant_id.as_str(), actor_id.as_str()))
                .map(|(tenant_id, actor)| scoped(tenant_id, actor, "send_notice", &event_id));
            let Some(Ok(key)) = keyed else { continue };
            if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
                continue;
            }
            let notice: Notice = kestrel::json::from_slice(row.bytes("payload")).map_err(|e| e.to_string())?;
            self.notifier.send(&tenant_id, &notice).await;
            let _ = self.kv.put(key.storage_key(), b"sent".to_vec()).await;
            self.conn.query("UPDATE notice_outbox SET sent_at = now() WHERE event_id = $1").bind(&event_id).execute().await.map_err(|e| e.to_string())?;
            sent += 1;
        }
        Ok(sent)
    }
}
