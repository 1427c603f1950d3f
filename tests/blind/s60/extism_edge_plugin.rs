use extism_pdk::*;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct EdgeRequest {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Option<String>,
}

#[derive(Serialize)]
struct EdgeDecision {
    forward: bool,
    status: u16,
    add_headers: Vec<(String, String)>,
    metric_labels: Vec<(String, String)>,
}

fn header<'a>(req: &'a EdgeRequest, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[plugin_fn]
pub fn on_request(Json(req): Json<EdgeRequest>) -> FnResult<Json<EdgeDecision>> {
    let tenant_label = config::get("tenant")?.unwrap_or_else(|| "unknown".to_string());
    let mut decision = EdgeDecision {
        forward: true,
        status: 200,
        add_headers: Vec::new(),
        metric_labels: vec![("tenant".into(), tenant_label), ("method".into(), req.method.clone())],
    };

    let mutating = matches!(req.method.as_str(), "POST" | "PUT" | "PATCH" | "DELETE");
    match header(&req, "Idempotency-Key") {
        None if mutating && req.path.starts_with("/v1/payments") => {
            decision.forward = false;
            decision.status = 400;
        }
        Some(k) => {
            info!("forwarding {} {} with key {}", req.method, req.path, k);
            let upstream = format!("edge-{}", k);
            decision.add_headers.push(("X-Upstream-Idempotency-Key".into(), upstream));
        }
        None => {}
    }

    if req.body.as_deref().map(str::len).unwrap_or(0) > 1 << 20 {
        decision.forward = false;
        decision.status = 413;
    }
    Ok(Json(decision))
}
