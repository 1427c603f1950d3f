use cairn::kv::Bucket;
use idem_scope::scoped;
use picoserve::extract::{FromRequestParts, State};
use picoserve::request::RequestParts;
use picoserve::response::{IntoResponse, StatusCode};
use picoserve::routing::post;

/// `Idempotency-Key` of a command sent to a device.
pub struct CommandKey(pub heapless::String<128>);

pub struct DeviceIdentity {
    pub project_id: heapless::String<64>,
    pub subject: heapless::String<64>,
}

impl<'r, S> FromRequestParts<'r, S> for CommandKey {
    type Rejection = StatusCode;

    async fn from_request_parts(_state: &'r S, parts: &RequestParts<'r>) -> Result<Self, Self::Rejection> {
        let value = parts
            .headers()
            .get("Idempotency-Key")
            .ok_or(StatusCode::BAD_REQUEST)?;
        let text = value.as_str().map_err(|_| StatusCode::BAD_REQUEST)?;
        heapless::String::try_from(text).map(CommandKey).map_err(|_| StatusCode::BAD_REQUEST)
    }
}

pub struct AppState {
    replies: Bucket,
}

async fn send_command(
    State(state): State<&'static AppState>,
    identity: DeviceIdentity,
    key: CommandKey,
    body: heapless::Vec<u8, 512>,
) -> impl IntoResponse {
    let mut subject = identity.subject.clone();
    subject.retain(|c| c != '\0');
    let trimmed = key.0.trim();

    let Ok(sk) = scoped(&identity.project_id, &subject, "devices.command", trimmed) else {
        return (StatusCode::BAD_REQUEST, "invalid scope");
    };
    if state.replies.get(sk.storage_key()).await.ok().flatten().is_some() {
        return (StatusCode::OK, "already sent");
    }
    if body.is_empty() {
        return (StatusCode::UNPROCESSABLE_ENTITY, "empty command");
    }
    let _ = state.replies.put(sk.storage_key(), &body).await;
    (StatusCode::ACCEPTED, "queued")
}

pub fn router() -> picoserve::Router<impl picoserve::routing::PathRouter<&'static AppState>, &'static AppState> {
    picoserve::Router::new().route("/commands", post(send_command))
}
