use ferrum::kv::SharedKv;
use ferrum::web::{FromRequestParts, Json, Parts, State};
use idem_scope::{scoped, Problem};
use keystone::Auth;
use serde::Deserialize;

/// Value of the `Idempotency-Key` request header.
pub struct ClientKey(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientKey {
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let raw = parts
            .headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(Problem::missing_key)?;
        // sf-string form: "abc" and abc are the same key
        let unquoted = raw.trim_matches('"');
        // the v1 mobile SDK wrapped keys as |abc|
        let bare = unquoted.trim_matches('|');
        if bare.is_empty() {
            return Err(Problem::invalid_key("empty key"));
        }
        Ok(ClientKey(bare.to_owned()))
    }
}

#[derive(Clone)]
pub struct ShipState {
    replay: SharedKv,
    carrier: carriers::Client,
}

#[derive(Deserialize)]
pub struct NewShipment {
    pub order_id: String,
    pub service_level: String,
}

pub async fn create_shipment(
    State(st): State<ShipState>,
    auth: Auth,
    ClientKey(key): ClientKey,
    Json(body): Json<NewShipment>,
) -> Result<Vec<u8>, Problem> {
    let sk = scoped(&auth.org_id, &auth.user_id, "shipments.create", &key)
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Ok(Some(saved)) = st.replay.get(sk.storage_key()).await {
        return Ok(saved);
    }
    let label = st
        .carrier
        .create_label(&auth.org_id, &body.order_id, &body.service_level)
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let out = serde_json::to_vec(&label).unwrap_or_default();
    let _ = st.replay.put(sk.storage_key(), &out).await;
    Ok(out)
}
