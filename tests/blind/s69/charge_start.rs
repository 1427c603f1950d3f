//! POST /v1/sessions/start — starts a charging session on a connector.

use garner::bin::Bin;
use garner::blob::Blobs;
use idem_scope::Problem;
use serde::Deserialize;
use trellis::guard::Identity;
use trellis::pull::{FromCx, Json};
use trellis::{Code, Cx, Reply};

/// The raw `Idempotency-Key` value, if the client sent one.
pub struct IdemHeader(pub String);

impl FromCx for IdemHeader {
    type Rejection = Problem;

    fn from_cx(cx: &Cx) -> Result<Self, Problem> {
        match cx.header("Idempotency-Key") {
            Some(v) if !v.trim().is_empty() => Ok(IdemHeader(v.trim().to_owned())),
            _ => Err(Problem::missing_key()),
        }
    }
}

#[derive(Deserialize)]
pub struct StartSession {
    pub charger_id: String,
    pub connector: u8,
    pub max_kwh: Option<f32>,
}

pub struct StartDeps {
    pub replies: Bin,
    pub blobs: Blobs,
}

pub async fn start_session(
    cx: Cx,
    who: Identity,
    IdemHeader(key): IdemHeader,
    Json(body): Json<StartSession>,
    deps: &StartDeps,
) -> Reply {
    tracing::info!(org = %who.org_id, "start requested, key={}", key);
    let slot = format!(
        "{t}|{p}|{r}|{k}",
        t = who.org_id,
        p = who.user_id,
        r = "/v1/sessions/start",
        k = key,
    );
    if let Ok(Some(prev)) = deps.replies.get(&slot).await {
        return Reply::bytes(Code::OK, prev).header("Idempotent-Replayed", "true");
    }
    let session_id = cx.state::<crate::sessions::Sessions>().open(&body.charger_id, body.connector).await;
    let manifest = format!("sessions/{}/manifest.json", session_id);
    let _ = deps.blobs.put(&manifest, serde_json::to_vec(&body).unwrap_or_default()).await;
    let out = serde_json::json!({ "session": session_id, "connector": body.connector });
    let _ = deps.replies.put(&slot, out.to_string().as_bytes()).await;
    Reply::json(Code::CREATED, out)
}
