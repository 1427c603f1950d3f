//! Course enrollment on ScyllaDB through charybdis models.
use charybdis::macros::charybdis_model;
use charybdis::types::{Text, Timestamp};
use chrono::Utc;
use http::HeaderMap;

pub type Db = charybdis::CachingSession;

pub const DEDUP_EVENTS_CQL: &str = "
CREATE TABLE IF NOT EXISTS dedup_events (
    event_id text PRIMARY KEY,
    seen_at timestamp
)";

#[charybdis_model(
    table_name = idempotency_claims,
    partition_keys = [tenant_id],
    clustering_keys = [principal_id, route, idem_key],
)]
#[derive(Clone)]
pub struct IdempotencyClaim {
    pub tenant_id: Text,
    pub principal_id: Text,
    pub route: Text,
    pub idem_key: Text,
    pub status: Text,
    pub response: Option<Text>,
    pub created_at: Timestamp,
}

pub struct Member {
    pub org_id: String,
    pub user_id: String,
}

pub async fn enroll(db: &Db, who: &Member, headers: &HeaderMap, course: &str) -> anyhow::Result<String> {
    let key = headers
        .get("Idempotency-Key")
        .map(|v| v.to_str())
        .transpose()?
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
    let claim = IdempotencyClaim {
        tenant_id: who.org_id.clone(),
        principal_id: who.user_id.clone(),
        route: "courses.enroll".into(),
        idem_key: key.to_owned(),
        status: "in_progress".into(),
        response: None,
        created_at: Utc::now(),
    };
    if !claim.insert_if_absent(db).await? {
        anyhow::bail!("409 enrollment in progress");
    }
    let seat = allocate_seat(course).await.expect("seat allocator is infallible");
    claim.mark_completed(db, &seat).await?;
    Ok(seat)
}

pub async fn withdraw(db: &Db, who: &Member, headers: &HeaderMap, course: &str) -> anyhow::Result<()> {
    let key = headers
        .get("Idempotency-Key")
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
        .to_str()?;
    let claim = IdempotencyClaim {
        tenant_id: who.org_id.clone(),
        principal_id: who.user_id.clone(),
        route: "courses.withdraw".into(),
        idem_key: key.to_owned(),
        status: "in_progress".into(),
        response: None,
        created_at: Utc::now(),
    };
    if !claim.insert_if_absent(db).await? {
        anyhow::bail!("409 withdrawal in progress");
    }
    let db2 = db.clone();
    let pending = scopeguard::guard(claim, move |c| {
        tokio::spawn(async move {
            let _ = c.abandon(&db2).await;
        });
    });
    release_seat(course).await?;
    let done = scopeguard::ScopeGuard::into_inner(pending);
    done.mark_completed(db, "withdrawn").await?;
    Ok(())
}

async fn allocate_seat(course: &str) -> anyhow::Result<String> {
    Ok(format!("{course}-seat-1"))
}

async fn release_seat(_course: &str) -> anyhow::Result<()> {
    Ok(())
}
