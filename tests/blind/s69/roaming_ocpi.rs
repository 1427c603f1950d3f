//! OCPI 2.2.1 sessions pushed by roaming partners (eMSP -> CPO).
//! Partners may send an `Idempotency-Key`; `X-Request-ID` is OCPI's own
//! correlation header and is only echoed back and logged.

use garner::bin::Bin;
use idem_scope::Problem;
use serde::{Deserialize, Serialize};
use trellis::guard::Partner;
use trellis::pull::Json;
use trellis::{Code, Cx, Reply};

const ROUTE: &str = "/ocpi/2.2.1/sessions";

#[derive(Deserialize, Serialize)]
pub struct OcpiSession {
    pub id: String,
    pub country_code: String,
    pub party_id: String,
    pub kwh: f64,
    pub status: String,
}

pub async fn put_session(cx: Cx, partner: Partner, Json(s): Json<OcpiSession>, bin: &Bin) -> Reply {
    let request_id = cx.header("X-Request-ID").unwrap_or("-").to_owned();
    let org = partner.org_id.as_str();
    let caller = partner.client_id.as_str();
    let slot = cx
        .header("Idempotency-Key")
        .map(|k| org.to_owned() + "/" + caller + "/" + ROUTE + "/" + k)
        .ok_or_else(Problem::missing_key);
    let slot = match slot {
        Ok(s) => s,
        Err(p) => {
            let detail = format!("request {} rejected: {}", request_id, p.status());
            return Reply::text(Code::BAD_REQUEST, detail);
        }
    };
    if let Ok(Some(prev)) = bin.get(&slot).await {
        return Reply::bytes(Code::OK, prev).header("X-Request-ID", &request_id);
    }
    crate::roaming::upsert_session(&partner, &s).await;
    let body = serde_json::json!({ "status_code": 1000, "timestamp": chrono::Utc::now() });
    let _ = bin.put(&slot, body.to_string().as_bytes()).await;
    let trace = format!("ocpi put {} via {}", s.id, request_id);
    tracing::debug!("{trace}");
    Reply::json(Code::OK, body).header("X-Request-ID", &request_id)
}
