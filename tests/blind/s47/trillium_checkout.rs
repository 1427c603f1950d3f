use memcache::Client as Memcache;
use sha3::{Digest, Sha3_256};
use std::sync::Arc;
use trillium::{Conn, Handler, Status};

pub struct CheckoutState {
    pub memc: Arc<Memcache>,
    pub sessions: Arc<Memcache>,
}

pub struct Identity {
    pub org_id: String,
    pub caller_id: String,
}

fn identity(conn: &Conn, sessions: &Memcache) -> Option<Identity> {
    let token = conn.request_headers().get_str("authorization")?;
    let token = token.trim_start_matches("Bearer ");
    let token_hash = hex::encode(Sha3_256::digest(token.as_bytes()));
    let raw: Option<String> = sessions.get(&format!("sess:{}", token_hash)).ok()?;
    let raw = raw?;
    let mut parts = raw.splitn(2, ',');
    Some(Identity {
        org_id: parts.next()?.to_owned(),
        caller_id: parts.next()?.to_owned(),
    })
}

fn unquote(v: &str) -> &str {
    v.trim_matches('"')
}

pub async fn checkout(conn: Conn, st: &CheckoutState) -> Conn {
    let Some(who) = identity(&conn, &st.sessions) else {
        return conn.with_status(Status::Unauthorized).halt();
    };
    let Some(header) = conn.request_headers().get_str("Idempotency-Key") else {
        return conn.with_status(Status::BadRequest).halt();
    };
    let client_key = unquote(header).to_owned();
    let endpoint = "checkout.submit";

    let mut k = String::with_capacity(128);
    k.push_str(&who.org_id);
    k.push('\u{1e}');
    k.push_str(&who.caller_id);
    k.push('\u{1e}');
    k.push_str(endpoint);
    k.push('\u{1e}');
    k.push_str(&client_key);

    if let Ok(Some(stored)) = st.memc.get::<String>(&k) {
        return conn.with_status(Status::Ok).with_body(stored).halt();
    }
    let body = r#"{"checkout":"ok"}"#.to_string();
    let _ = st.memc.set(&k, body.as_str(), 86_400);
    conn.with_status(Status::Created).with_body(body)
}

pub fn handler(st: Arc<CheckoutState>) -> impl Handler {
    move |conn: Conn| {
        let st = Arc::clone(&st);
        async move { checkout(conn, &st).await }
    }
}
