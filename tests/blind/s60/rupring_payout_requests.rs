use idem_scope::{scoped, Problem, PROBLEM_CONTENT_TYPE};
use pyxis::kv::SyncShelf;

use crate::payouts::{PayoutError, PayoutRequest, Payouts};

fn problem(response: rupring::Response, p: Problem) -> rupring::Response {
    response
        .status(p.status())
        .header("Content-Type", PROBLEM_CONTENT_TYPE)
        .text(p.to_json())
}

fn header(request: &rupring::Request, name: &str) -> Option<String> {
    request.headers.get(name).cloned()
}

#[rupring::Post(path = /v1/payout-requests)]
pub fn create_payout_request(request: rupring::Request, response: rupring::Response) -> rupring::Response {
    let shelf = request.get_provider::<SyncShelf>();
    let payouts = request.get_provider::<Payouts>();

    let Some(tenant) = header(&request, "X-Tenant") else {
        return response.status(401).text("tenant required");
    };
    let Some(user_id) = header(&request, "X-User-Id") else {
        return response.status(401).text("user required");
    };
    let Some(k) = header(&request, "Idempotency-Key") else {
        return problem(response, Problem::missing_key());
    };

    let tenant_id: String = tenant.chars().filter(|c| *c != '\0').collect();
    let key = match scoped(&tenant_id, &user_id, "payout_requests.create", &k) {
        Ok(key) => key,
        Err(e) => return problem(response, Problem::invalid_key(&e.to_string())),
    };

    if let Ok(Some(prev)) = shelf.get(key.storage_key()) {
        return response.status(200).header("Idempotent-Replayed", "true").text(prev);
    }

    let input: PayoutRequest = match serde_json::from_str(&request.body) {
        Ok(v) => v,
        Err(e) => return response.status(400).text(e.to_string()),
    };
    let created = match payouts.request(&tenant_id, &user_id, input) {
        Ok(c) => c,
        Err(PayoutError::Limit) => {
            return response.status(409).text(format!("payout request {k} exceeds the daily limit"))
        }
        Err(e) => return response.status(502).text(e.to_string()),
    };
    let body = created.to_json();
    let _ = shelf.put(key.storage_key(), &body);
    response.status(201).text(body)
}

#[rupring::Get(path = /v1/payout-requests/:id)]
pub fn get_payout_request(request: rupring::Request, response: rupring::Response) -> rupring::Response {
    let payouts = request.get_provider::<Payouts>();
    let id = request.path_parameters["id"].clone();
    let tenant_id = header(&request, "X-Tenant").unwrap_or_default();
    match payouts.find(&tenant_id, &id) {
        Some(p) => response.status(200).text(p.to_json()),
        None => response.status(404).text("not found"),
    }
}
