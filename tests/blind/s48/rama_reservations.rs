use crate::idem::{Claim, Records};
use idem_scope::{scoped, Fingerprint, Problem, ScopedKey};
use rama::http::{Body, HeaderMap, Response, StatusCode};
use std::sync::Arc;

pub struct Seat {
    pub row: u8,
    pub col: u8,
}

pub struct Caller {
    pub tenant_id: String,
    pub principal: String,
}

fn parse_seat(raw: &[u8]) -> Result<Seat, Problem> {
    if raw.len() < 2 {
        return Err(Problem::invalid_key("seat"));
    }
    Ok(Seat { row: raw[0], col: raw[1] })
}

fn problem(p: Problem) -> Response {
    Response::builder().status(p.status()).body(Body::from(p.to_json())).unwrap()
}

fn key_for(c: &Caller, route: &str, h: &HeaderMap) -> Result<ScopedKey, Problem> {
    let raw = h.get("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let ck = idem_scope::IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    scoped(&c.tenant_id, &c.principal, route, ck.as_str()).map_err(|e| Problem::invalid_key(&e.to_string()))
}

pub async fn reserve_seat(records: Arc<Records>, c: Caller, h: HeaderMap, body: Vec<u8>) -> Response {
    let key = match key_for(&c, "seats.reserve", &h) {
        Ok(k) => k,
        Err(p) => return problem(p),
    };
    let fp = Fingerprint::of("seats.reserve", &body);
    if let Err(p) = records.mark_in_progress(&key, &fp).await {
        return problem(p);
    }
    let seat = match parse_seat(&body) {
        Ok(s) => s,
        Err(p) => return problem(p),
    };
    let out = format!("{{\"row\":{},\"col\":{}}}", seat.row, seat.col);
    let _ = records.mark_completed(&key, out.as_bytes()).await;
    Response::builder().status(StatusCode::CREATED).body(Body::from(out)).unwrap()
}

pub async fn release_seat(records: Arc<Records>, c: Caller, h: HeaderMap, body: Vec<u8>) -> Response {
    let key = match key_for(&c, "seats.release", &h) {
        Ok(k) => k,
        Err(p) => return problem(p),
    };
    let fp = Fingerprint::of("seats.release", &body);
    if let Err(p) = records.mark_in_progress(&key, &fp).await {
        return problem(p);
    }
    let seat = match parse_seat(&body) {
        Ok(s) => s,
        Err(p) => {
            let _ = records.release(&key).await;
            return problem(p);
        }
    };
    let out = format!("{{\"released\":[{},{}]}}", seat.row, seat.col);
    let _ = records.mark_completed(&key, out.as_bytes()).await;
    Response::new(Body::from(out))
}

pub async fn hold_seat(records: Arc<Records>, c: Caller, h: HeaderMap, body: Vec<u8>) -> Result<Response, Problem> {
    let key = key_for(&c, "seats.hold", &h)?;
    let fp = Fingerprint::of("seats.hold", &body);
    let claim: Claim = records.claim(&key, &fp).await?;
    let seat = parse_seat(&body)?;
    let out = format!("{{\"held\":[{},{}]}}", seat.row, seat.col);
    claim.complete(out.as_bytes()).await?;
    Ok(Response::new(Body::from(out)))
}
