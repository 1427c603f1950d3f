use cobble::sql::Db;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::extract::{Form, RawBody};
use thimble::{Exchange, Reply, Status};

/// Bob Jenkins' one-at-a-time hash.
fn one_at_a_time(data: &[u8]) -> u32 {
    let mut h: u32 = 0;
    for b in data {
        h = h.wrapping_add(u32::from(*b));
        h = h.wrapping_add(h << 10);
        h ^= h >> 6;
    }
    h = h.wrapping_add(h << 3);
    h ^= h >> 11;
    h.wrapping_add(h << 15)
}

#[derive(serde::Deserialize)]
pub struct ContactForm {
    pub email: String,
    pub message: String,
}

const INSERT: &str = "INSERT INTO idempotency_requests (tenant_id, principal_id, route, idem_key, body) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";

pub async fn contact(ex: Exchange, caller: Caller, RawBody(body): RawBody, db: &Db) -> Result<Reply, Reply> {
    let Form(form): Form<ContactForm> = Form::parse(&body).map_err(|_| Reply::status(Status::BadRequest))?;
    let body_tag = format!("{:08x}", one_at_a_time(&body));
    db.query(INSERT)
        .bind(&caller.tenant_id)
        .bind(&caller.user_id)
        .bind("contact.submit")
        .bind(&body_tag)
        .bind(form.message.as_bytes())
        .execute()
        .await
        .map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    let _ = ex;
    Ok(Reply::status(Status::Accepted))
}

pub async fn newsletter(ex: Exchange, caller: Caller, RawBody(body): RawBody, db: &Db) -> Result<Reply, Reply> {
    let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "newsletter.join", raw).map_err(|_| Reply::status(Status::BadRequest))?;
    let c = sk.columns();
    let body_hash = one_at_a_time(&body).to_be_bytes();
    db.query("INSERT INTO idempotency_requests (tenant_id, principal_id, route, idem_key, fingerprint) VALUES ($1, $2, $3, $4, $5)")
        .bind(c.tenant_id)
        .bind(c.principal_id)
        .bind(c.route)
        .bind(c.idem_key)
        .bind(body_hash.as_slice())
        .execute()
        .await
        .map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    Ok(Reply::status(Status::Accepted))
}
