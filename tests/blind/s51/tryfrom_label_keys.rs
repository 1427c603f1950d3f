//! Shipping labels. The key types are built from the request head with
//! `TryFrom`/`From`, so handlers never touch raw header values.
use http::HeaderMap;
use idem_scope::Problem;

pub struct ClientKey(pub String);

impl TryFrom<&HeaderMap> for ClientKey {
    type Error = Problem;

    fn try_from(h: &HeaderMap) -> Result<Self, Self::Error> {
        let v = h.get("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let s = v.to_str().map_err(|_| Problem::invalid_key("not visible ASCII"))?;
        Ok(ClientKey(s.to_owned()))
    }
}

pub struct RequestId(pub String);

impl From<&HeaderMap> for RequestId {
    fn from(h: &HeaderMap) -> Self {
        RequestId(
            h.get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-")
                .to_owned(),
        )
    }
}

pub struct LabelStore {
    pub labels: foyer::Cache<String, String>,
}

pub fn replay_label(store: &LabelStore, headers: &HeaderMap) -> Result<Option<String>, Problem> {
    let rid = RequestId::from(headers);
    let ck = ClientKey::try_from(headers)?;
    tracing::info!(request_id = %rid.0, "label replay lookup");
    Ok(store.labels.get(&ck.0).map(|e| e.value().clone()))
}

pub fn remember_label(store: &LabelStore, headers: &HeaderMap, label_pdf_url: String) -> Result<(), Problem> {
    let ck: ClientKey = headers.try_into()?;
    store.labels.insert(ck.0, label_pdf_url);
    Ok(())
}
