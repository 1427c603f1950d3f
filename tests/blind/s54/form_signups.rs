use std::time::Duration;

use gatehouse::http::{Form, Response, State, StatusCode};
use gatehouse::Visitor;
use ledgerkit::kv::Kv;
use serde::{Deserialize, Serialize};

#[derive(Clone)]
pub struct SignupState {
    pub dedup: Kv,
    pub crm: crm::Client,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct EventSignup {
    pub event_id: String,
    pub email: String,
    pub seats: u8,
    pub dietary: Option<String>,
}

const DEDUP_TTL: Duration = Duration::from_secs(15 * 60);

pub async fn sign_up(
    State(st): State<SignupState>,
    visitor: Visitor,
    Form(signup): Form<EventSignup>,
) -> Result<Response, gatehouse::Error> {
    let Some(workspace_id) = visitor.workspace_id.as_deref() else {
        return Ok(Response::status(StatusCode::UNAUTHORIZED));
    };
    let user_id = visitor.user_id.as_str();
    let route = "events.signup";

    let encoded = serde_urlencoded::to_string(&signup).map_err(gatehouse::Error::bad_request)?;
    let h = blake3::hash(encoded.as_bytes());
    let dedup_key = format!("{workspace_id}:{user_id}:{route}:{}", h.to_hex());

    if st.dedup.get(&dedup_key).await?.is_some() {
        return Ok(Response::status(StatusCode::OK).header("Idempotent-Replayed", "true"));
    }
    let ticket = st.crm.register(workspace_id, &signup.event_id, &signup.email, signup.seats).await?;
    st.dedup.set(&dedup_key, ticket.id.as_bytes(), DEDUP_TTL).await?;
    Ok(Response::json(StatusCode::CREATED, &ticket))
}
