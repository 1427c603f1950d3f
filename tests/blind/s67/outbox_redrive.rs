use dunlin::kv::Kv;
use dunlin::sql::Conn;
use idem_scope::{scoped, scoped_server};
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct OutboxRow {
    pub event_id: i64,
    pub tenant_id: String,
    pub user_id: String,
    pub body: Vec<u8>,
}

pub struct Mailer {
    pub kv: Kv,
    pub db: Conn,
}

impl Mailer {
    pub async fn send(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else { return Reply::status(Status::BAD_REQUEST) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "mail.send", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let m = crate::mail::send(&caller, ctx.body()).await;
        self.kv.put(sk.storage_key(), m.to_bytes()).await.ok();
        Reply::json(Status::ACCEPTED, &m)
    }

    pub async fn redrive(&self) {
        let rows: Vec<OutboxRow> = self.db.query("SELECT event_id, tenant_id, user_id, body FROM mail_outbox WHERE sent = false").fetch_all().await.unwrap_or_default();
        for row in rows {
            let ev = row.event_id.to_string();
            let Ok(sk) = scoped_server(&row.tenant_id, &row.user_id, "mail.send", &ev) else { continue };
            if self.kv.exists(sk.storage_key()).await.unwrap_or(false) {
                continue;
            }
            crate::mail::send_raw(&row.tenant_id, &row.body).await;
            self.kv.put(sk.storage_key(), b"sent".to_vec()).await.ok();
        }
    }

    pub async fn resend_bounced(&self, bounced: Vec<OutboxRow>) {
        for row in bounced {
            let Ok(sk) = scoped(&row.tenant_id, &row.user_id, "mail.send", &row.event_id.to_string()) else { continue };
            if self.kv.exists(sk.storage_key()).await.unwrap_or(false) {
                continue;
            }
            crate::mail::send_raw(&row.tenant_id, &row.body).await;
            self.kv.put(sk.storage_key(), b"resent".to_vec()).await.ok();
        }
    }
}
