use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use monoio_http::common::body::{FixedBody, HttpBody};
use monoio_http::common::request::Request;
use monoio_http::common::response::Response;

#[derive(Clone, Hash, PartialEq, Eq)]
struct BookingKey {
    org_id: String,
    user_id: String,
    endpoint: &'static str,
    client: String,
}

#[derive(Default)]
pub struct BoxOffice {
    bookings: RefCell<HashMap<BookingKey, Vec<u8>>>,
    seats: RefCell<HashMap<String, u32>>,
}

fn reply(status: u16, body: Vec<u8>) -> Response<HttpBody> {
    Response::builder().status(status).body(HttpBody::fixed_body(Some(body.into()))).unwrap()
}

pub async fn book(office: Rc<BoxOffice>, org_id: String, user_id: String, venue: String, req: Request<HttpBody>) -> Response<HttpBody> {
    let Some(raw) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return reply(400, b"Idempotency-Key required".to_vec());
    };
    let client = raw.trim().replace('\0', "");
    let key = BookingKey { org_id, user_id, endpoint: "tickets.book", client };

    if let Some(prev) = office.bookings.borrow().get(&key) {
        return reply(200, prev.clone());
    }
    let mut seats = office.seats.borrow_mut();
    let left = seats.entry(venue.clone()).or_insert(100);
    if *left == 0 {
        return reply(409, b"sold out".to_vec());
    }
    *left -= 1;
    let body = format!(r#"{{"venue":"{}","seat":{}}}"#, venue, *left).into_bytes();
    office.bookings.borrow_mut().insert(key, body.clone());
    reply(201, body)
}
