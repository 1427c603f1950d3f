use std::sync::Arc;

use idem_scope::{scoped, Problem};
use omniqueue::backends::InMemoryBackend;
use omniqueue::DynConsumer;
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
struct LedgerMessage {
    message_id: String,
    tenant_id: String,
    actor: String,
    kind: String,
    amount_minor: i64,
}

#[derive(Deserialize)]
pub struct ManualPosting {
    amount_minor: i64,
    memo: String,
}

pub struct LedgerService {
    vault: Arc<Vault>,
    books: books::Books,
}

impl LedgerService {
    pub async fn manual_posting(&self, ctx: &Ctx, caller: &Caller, Json(p): Json<ManualPosting>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "ledger.manual", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let entry = self.books.post(&caller.tenant_id, p.amount_minor, &p.memo).await;
        let _ = self.vault.put(sk.storage_key(), entry.to_bytes()).await;
        Reply::bytes(Status::CREATED, entry.to_bytes())
    }

    pub async fn consume(&self, mut consumer: DynConsumer) -> anyhow::Result<()> {
        loop {
            let delivery = consumer.receive().await?;
            let msg: LedgerMessage = match delivery.payload_serde_json()? {
                Some(m) => m,
                None => {
                    delivery.ack().await.ok();
                    continue;
                }
            };
            let slot = match msg.kind.as_str() {
                "adjustment" => format!("s:{}:{}:{}:{}", msg.tenant_id, msg.actor, "ledger.adjust", msg.message_id),
                _ => scoped(&msg.tenant_id, &msg.actor, "ledger.post", &msg.message_id)?.storage_key().to_owned(),
            };
            if self.vault.exists(&slot).await? {
                delivery.ack().await.ok();
                continue;
            }
            let entry = self.books.post(&msg.tenant_id, msg.amount_minor, &msg.kind).await;
            self.vault.put(&slot, entry.to_bytes()).await?;
            delivery.ack().await.ok();
        }
    }
}

pub async fn in_memory_pair() -> (omniqueue::DynProducer, DynConsumer) {
    let (p, c) = InMemoryBackend::builder().build_pair().await.expect("in-memory queue");
    (p.into_dyn(), c.into_dyn())
}
