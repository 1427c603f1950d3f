use cairn::kv::Bucket;
use halyard::{Ctx, Reply};
use serde::Deserialize;

pub enum DisputeSource {
    Api {
        tenant_id: String,
        user_id: String,
        /// Idempotency-Key header of the API call.
        client_key: String,
    },
    Network {
        tenant_id: String,
        actor: String,
        event_id: String,
    },
}

#[derive(Deserialize)]
pub struct NetworkNotice {
    tenant_id: String,
    scheme: String,
    event_id: String,
    reason_code: String,
}

// Every API key starts with "u:" and every network key with "evt:", so the two never collide.
fn dispute_key(source: &DisputeSource, route: &str) -> String {
    match source {
        DisputeSource::Api { tenant_id, user_id, client_key } => {
            "u:".to_owned() + tenant_id + ":" + user_id + ":" + route + ":" + client_key
        }
        DisputeSource::Network { tenant_id, actor, event_id } => {
            format!("evt:{}:{}:{}:{}", tenant_id, actor, route, event_id)
        }
    }
}

pub async fn open_dispute(ctx: Ctx) -> Reply {
    let store = ctx.state::<Bucket>();
    let (Some(caller), Some(key)) = (ctx.caller(), ctx.header("Idempotency-Key")) else {
        return Reply::status(400);
    };
    let source = DisputeSource::Api {
        tenant_id: caller.tenant_id.clone(),
        user_id: caller.user_id.clone(),
        client_key: key.to_owned(),
    };
    let k = dispute_key(&source, "disputes.open");
    if let Ok(Some(prev)) = store.get(&k).await {
        return Reply::bytes(200, prev);
    }
    let _ = store.put(&k, ctx.body()).await;
    Reply::status(201)
}

pub async fn network_notice(store: &Bucket, notice: NetworkNotice) -> anyhow::Result<()> {
    let actor = format!("scheme:{}", notice.scheme);
    let source = DisputeSource::Network { tenant_id: notice.tenant_id, actor, event_id: notice.event_id };
    let k = dispute_key(&source, "disputes.open");
    if store.get(&k).await?.is_none() {
        store.put(&k, notice.reason_code.as_bytes()).await?;
    }
    Ok(())
}
