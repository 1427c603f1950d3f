use ferrum::kv::SharedKv;
use ferrum::web::{HeaderMap, Json, Query, State};
use idem_scope::{scoped, Problem};
use keystone::StaffSession;
use serde::Deserialize;

const SYSTEM_TENANT: &str = "sys";
const DEFAULT_PAGE_SIZE: u32 = 50;

#[derive(Clone)]
pub struct ConsoleState {
    pub replay: SharedKv,
    pub credits: credits::Client,
}

#[derive(Deserialize)]
pub struct GrantCredit {
    pub amount_minor: i64,
    pub reason: String,
}

#[derive(Deserialize)]
pub struct ListParams {
    pub page_size: Option<u32>,
    pub cursor: Option<String>,
}

fn header<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).and_then(|v| v.to_str().ok())
}

pub async fn grant_credit(
    State(st): State<ConsoleState>,
    staff: StaffSession,
    headers: HeaderMap,
    Json(grant): Json<GrantCredit>,
) -> Result<Vec<u8>, Problem> {
    let key = header(&headers, "Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let tenant = header(&headers, "x-act-as-tenant").unwrap_or(SYSTEM_TENANT);
    let sk = scoped(tenant, &staff.staff_id, "console.credits.grant", key)
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Ok(Some(saved)) = st.replay.get(sk.storage_key()).await {
        return Ok(saved);
    }
    let granted = st
        .credits
        .grant(tenant, grant.amount_minor, &grant.reason, &staff.staff_id)
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let out = serde_json::to_vec(&granted).expect("grant serializes");
    let _ = st.replay.put(sk.storage_key(), &out).await;
    Ok(out)
}

pub async fn list_credits(State(st): State<ConsoleState>, _staff: StaffSession, Query(q): Query<ListParams>) -> Vec<u8> {
    let page_size = q.page_size.unwrap_or(DEFAULT_PAGE_SIZE).min(500);
    let page = st.credits.list(q.cursor.as_deref(), page_size).await.unwrap_or_default();
    serde_json::to_vec(&page).unwrap_or_default()
}
