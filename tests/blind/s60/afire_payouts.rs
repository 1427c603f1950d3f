use std::sync::Arc;

use afire::{Method, Request, Response, Server, Status};
use fsb::{Digest, Fsb256};
use idem_scope::{scoped, Fingerprint, Problem, ScopedKey, PROBLEM_CONTENT_TYPE};
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::bank::BankLink;

#[derive(Deserialize)]
struct PayoutLine {
    iban: String,
    amount_minor: i64,
}

#[derive(Deserialize)]
struct PayoutBatch {
    payouts: Vec<PayoutLine>,
}

pub struct State {
    pub replays: Shelf,
    pub bank: BankLink,
}

fn problem(p: Problem) -> Response {
    Response::new()
        .status(p.status())
        .header("Content-Type", PROBLEM_CONTENT_TYPE)
        .text(p.to_json())
}

fn principal_of(req: &Request) -> Option<(String, String)> {
    let tenant_id = req.headers.get("X-Org")?.to_owned();
    let user_id = req.headers.get("X-User")?.to_owned();
    Some((tenant_id, user_id))
}

fn client_key(req: &Request) -> Option<String> {
    let raw = req.headers.get("Idempotency-Key")?;
    let unquoted = raw.trim().trim_matches('"');
    (!unquoted.is_empty()).then(|| unquoted.to_owned())
}

fn run(st: &State, key: &ScopedKey, fingerprint: Fingerprint, body: &[u8]) -> Response {
    if let Some(prev) = st.replays.get(key.storage_key()) {
        return Response::new().status(Status::Ok).bytes(&prev.body);
    }
    let batch: Vec<PayoutLine> = match serde_json::from_slice::<PayoutBatch>(body) {
        Ok(b) => b.payouts,
        Err(_) => match serde_json::from_slice::<PayoutLine>(body) {
            Ok(one) => vec![one],
            Err(e) => return problem(Problem::invalid_key(&e.to_string())),
        },
    };
    let receipt = st.bank.send(batch.iter().map(|p| (p.iban.as_str(), p.amount_minor)));
    st.replays.put(key.storage_key(), receipt.as_bytes(), fingerprint);
    Response::new().status(Status::Created).bytes(receipt.as_bytes())
}

pub fn mount(server: &mut Server<State>) {
    server.stateful_route(Method::POST, "/v1/payouts", |st: Arc<State>, req: &Request| {
        let Some((tenant_id, user_id)) = principal_of(req) else {
            return Response::new().status(Status::Unauthorized);
        };
        let Some(k) = client_key(req) else {
            return problem(Problem::missing_key());
        };
        let key = match scoped(&tenant_id, &user_id, "payout", &k) {
            Ok(key) => key,
            Err(e) => return problem(Problem::invalid_key(&e.to_string())),
        };
        let fingerprint = Fingerprint::of("payout", &req.body);
        run(&st, &key, fingerprint, &req.body)
    });

    server.stateful_route(Method::POST, "/v1/payouts/batch", |st: Arc<State>, req: &Request| {
        let Some((tenant_id, user_id)) = principal_of(req) else {
            return Response::new().status(Status::Unauthorized);
        };
        let key = match scoped(&tenant_id, &user_id, "payout.batch", &base16::encode_lower(&Fsb256::digest(&req.body))) {
            Ok(key) => key,
            Err(e) => return problem(Problem::invalid_key(&e.to_string())),
        };
        let fingerprint = Fingerprint::of("payout.batch", &req.body);
        run(&st, &key, fingerprint, &req.body)
    });
}
