use std::sync::Arc;

use gatehouse::http::{Json, Response, State, StatusCode};
use gatehouse::Auth;
use ledgerkit::idem::TypedReplay;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Debug, Serialize, Deserialize)]
pub struct NewPaymentLink {
    pub amount_minor: i64,
    pub currency: String,
    pub expires_in_secs: Option<u32>,
    pub metadata: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, Serialize)]
pub struct LinkReplayKey {
    pub tenant_id: String,
    pub principal_id: String,
    pub route: &'static str,
    pub digest: [u8; 32],
}

#[derive(Clone)]
pub struct LinksState {
    pub replay: Arc<TypedReplay<LinkReplayKey, serde_json::Value>>,
    pub links: Arc<links::Issuer>,
}

fn canonical_digest(link: &NewPaymentLink) -> [u8; 32] {
    let bytes = serde_json::to_vec(link).expect("serializable");
    Sha256::digest(&bytes).into()
}

pub async fn create_link(
    State(st): State<LinksState>,
    auth: Auth,
    Json(link): Json<NewPaymentLink>,
) -> Result<Response, gatehouse::Error> {
    let key = LinkReplayKey {
        tenant_id: auth.tenant_id.clone(),
        principal_id: auth.principal_id.clone(),
        route: "payment_links.create",
        digest: canonical_digest(&link),
    };
    if let Some(prev) = st.replay.get(&key).await? {
        return Ok(Response::json(StatusCode::OK, &prev));
    }
    let issued = st.links.issue(&auth.tenant_id, link.amount_minor, &link.currency, link.expires_in_secs.unwrap_or(86_400)).await?;
    let body = serde_json::to_value(&issued)?;
    st.replay.insert(key, body.clone()).await?;
    Ok(Response::json(StatusCode::CREATED, &body))
}
