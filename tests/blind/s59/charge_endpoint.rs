use std::sync::Arc;

use concread::arcache::ARCache;
use idem_scope::{decide, Decision, Fingerprint, Problem, Record, PROBLEM_CONTENT_TYPE};
use simple_server::{Method, Request, ResponseBuilder, ResponseResult, Server, StatusCode};

use crate::billing::{self, ChargeRequest};
use crate::session::resolve_caller;

pub type ChargeReplays = ARCache<String, (Record, Vec<u8>)>;

pub fn serve(replays: Arc<ChargeReplays>, port: &'static str) {
    let server = Server::new(move |request: Request<Vec<u8>>, response: ResponseBuilder| {
        match (request.method(), request.uri().path()) {
            (&Method::POST, "/v2/charges") => charge(&replays, request, response),
            _ => not_found(response),
        }
    });
    server.listen("0.0.0.0", port);
}

fn charge(replays: &ChargeReplays, request: Request<Vec<u8>>, mut response: ResponseBuilder) -> ResponseResult {
    let Some(raw) = request.headers().get("idempotency-key") else {
        return problem(response, Problem::missing_key());
    };
    let key = match raw.to_str() {
        Ok(k) if !k.is_empty() => k.trim().to_owned(),
        _ => return problem(response, Problem::invalid_key("not visible ASCII")),
    };
    let caller = match resolve_caller(request.headers()) {
        Ok(c) => c,
        Err(p) => return problem(response, p),
    };
    let tenant_id = caller.tenant_id.as_str();
    let user_id = caller.user_id.as_str();
    let slot = format!("{}/{}/{}/{}", tenant_id, user_id, "charge", key);
    let fp = Fingerprint::of("charge", request.body());

    {
        let mut read = replays.read();
        if let Some((record, body)) = read.get(&slot) {
            return match decide(Some(record), &fp) {
                Decision::Replay => Ok(response
                    .status(StatusCode::OK)
                    .header("Idempotent-Replayed", "true")
                    .body(body.clone())?),
                Decision::InProgress => problem(response, Problem::in_progress(&key)),
                Decision::Mismatch => problem(response, Problem::mismatch(&key)),
                Decision::Proceed => unreachable!("record exists"),
            };
        }
    }

    let input: ChargeRequest = match serde_json::from_slice(request.body()) {
        Ok(v) => v,
        Err(e) => return Ok(response.status(StatusCode::BAD_REQUEST).body(e.to_string().into_bytes())?),
    };
    let receipt = billing::charge(&caller, &input);
    let body = serde_json::to_vec(&receipt).unwrap_or_default();

    let mut write = replays.write();
    write.insert(slot, (Record::completed(fp), body.clone()));
    write.commit();

    Ok(response.status(StatusCode::CREATED).header("content-type", "application/json").body(body)?)
}

fn problem(mut response: ResponseBuilder, p: Problem) -> ResponseResult {
    Ok(response
        .status(p.status())
        .header("content-type", PROBLEM_CONTENT_TYPE)
        .body(p.to_json().into_bytes())?)
}

fn not_found(mut response: ResponseBuilder) -> ResponseResult {
    Ok(response.status(StatusCode::NOT_FOUND).body(Vec::new())?)
}
