use fred::prelude::*;
use fred::types::Expiration;
use idem_scope::{scoped, scoped_server};
use serde::Deserialize;
use trillium::{Conn, Status};

pub struct Hooks {
    pub dedup: RedisClient,
    pub audit: RedisClient,
}

#[derive(Deserialize)]
pub struct ProviderEvent {
    pub id: String,
    pub account_id: String,
    pub actor: String,
    pub kind: String,
}

fn hdr(conn: &Conn, name: &'static str) -> Option<String> {
    conn.request_headers().get_str(name).map(|s| s.to_string())
}

pub async fn create_payment(mut conn: Conn, hooks: &Hooks) -> Conn {
    let (Some(org), Some(user_id), Some(key)) = (hdr(&conn, "x-org-id"), hdr(&conn, "x-user-id"), hdr(&conn, "idempotency-key")) else {
        return conn.with_status(Status::BadRequest);
    };
    let Ok(sk) = scoped(&org, &user_id, "payments.create", &key) else {
        return conn.with_status(Status::BadRequest);
    };
    if let Ok(Some(prev)) = hooks.dedup.get::<Option<String>, _>(sk.storage_key()).await {
        return conn.with_status(Status::Ok).with_body(prev);
    }
    let body = conn.request_body_string().await.unwrap_or_default();
    let _ = hooks.dedup.set::<(), _, _>(sk.storage_key(), body.clone(), Some(Expiration::EX(86_400)), None, false).await;
    conn.with_status(Status::Created).with_body(body)
}

pub async fn provider_webhook(mut conn: Conn, hooks: &Hooks) -> Conn {
    let Some(delivery) = hdr(&conn, "x-provider-delivery") else {
        return conn.with_status(Status::BadRequest);
    };
    let raw = conn.request_body_string().await.unwrap_or_default();
    let Ok(evt) = serde_json::from_str::<ProviderEvent>(&raw) else {
        return conn.with_status(Status::UnprocessableEntity);
    };
    let Ok(sk) = scoped(&evt.account_id, &evt.actor, "provider.webhook", &delivery) else {
        return conn.with_status(Status::BadRequest);
    };
    let seen: Option<String> = hooks.dedup.get(sk.storage_key()).await.ok().flatten();
    if seen.is_some() {
        return conn.with_status(Status::Ok);
    }
    let _ = hooks.dedup.set::<(), _, _>(sk.storage_key(), "done", Some(Expiration::EX(604_800)), None, false).await;
    conn.with_status(Status::Accepted)
}

pub async fn provider_event_replay(hooks: &Hooks, evt: ProviderEvent) -> Result<(), RedisError> {
    let sk = scoped_server(&evt.account_id, &evt.actor, "provider.replay", &evt.id).map_err(|e| RedisError::new(RedisErrorKind::InvalidArgument, e.to_string()))?;
    let _: () = hooks.dedup.set(sk.storage_key(), evt.kind.as_str(), Some(Expiration::EX(604_800)), None, false).await?;
    hooks.audit.set::<(), _, _>(format!("audit:{}", evt.id), "replayed", None, None, false).await
}
