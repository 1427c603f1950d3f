use ferrum::kv::SharedKv;
use ferrum::web::{HeaderMap, Json, State};
use idem_scope::{scoped, Problem};
use keystone::Auth;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Clone)]
pub struct Helpdesk {
    replay: SharedKv,
    tickets: SharedKv,
}

#[derive(Deserialize)]
pub struct NewTicket {
    pub subject: String,
    pub body: String,
    pub priority: Option<u8>,
}

#[derive(Serialize, Deserialize)]
pub struct Ticket {
    pub id: Uuid,
    pub subject: String,
    pub priority: u8,
}

pub async fn submit_ticket(
    State(hd): State<Helpdesk>,
    auth: Auth,
    headers: HeaderMap,
    Json(req): Json<NewTicket>,
) -> Result<Json<Ticket>, Problem> {
    let key = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .unwrap_or_else(|| Uuid::new_v4().to_string());
    let sk = scoped(&auth.tenant_id, &auth.user_id, "tickets.submit", &key)
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Ok(Some(raw)) = hd.replay.get(sk.storage_key()).await {
        if let Ok(t) = serde_json::from_slice::<Ticket>(&raw) {
            return Ok(Json(t));
        }
    }

    let ticket_id = Uuid::new_v4();
    let ticket = Ticket { id: ticket_id, subject: req.subject, priority: req.priority.unwrap_or(3) };
    let encoded = serde_json::to_vec(&ticket).expect("ticket serializes");
    let _ = hd.tickets.put(&format!("ticket:{}:{}", auth.tenant_id, ticket_id), &encoded).await;
    let _ = hd.replay.put(sk.storage_key(), &encoded).await;
    Ok(Json(ticket))
}
