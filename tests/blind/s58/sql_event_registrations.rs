use cairn::sql::{query, Pool};
use halyard::{Ctx, Json, Reply};
use idem_scope::Fingerprint;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize)]
pub struct Registration {
    event_slug: String,
    attendee_email: String,
    tickets: u8,
}

/// Kiosk endpoint: kiosks have no way to send headers, so the body identifies the retry.
pub async fn register_at_kiosk(ctx: Ctx, Json(reg): Json<Registration>) -> Result<Reply, halyard::Error> {
    let pool = ctx.state::<Pool>();
    let caller = ctx.caller().ok_or(halyard::Error::Unauthorized)?;
    let route = "events.register";
    let body = ctx.body();
    let response = serde_json::to_vec(&reg).map_err(|_| halyard::Error::Internal)?;

    let stored: Vec<u8> = query("INSERT INTO idempotency_requests (tenant_id, user_id, route, idem_key, fingerprint, response) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant_id, user_id, route, idem_key) DO UPDATE SET tenant_id = EXCLUDED.tenant_id RETURNING response")
        .bind(&caller.tenant_id)
        .bind(&caller.user_id)
        .bind(route)
        .bind(format!("{:08x}", adler32::adler32(body).map_err(|_| halyard::Error::Internal)?))
        .bind(Fingerprint::of(route, body).as_bytes().as_slice())
        .bind(&response)
        .fetch_one(pool)
        .await
        .map_err(|_| halyard::Error::Internal)?
        .get("response");
    Ok(Reply::bytes(201, stored))
}

pub async fn list_registrations(ctx: Ctx) -> Result<Reply, halyard::Error> {
    let pool = ctx.state::<Pool>();
    let caller = ctx.caller().ok_or(halyard::Error::Unauthorized)?;
    let slug = ctx.param("slug").ok_or(halyard::Error::BadRequest("slug"))?;
    let rows = query("SELECT attendee_email, tickets FROM registrations WHERE tenant_id = $1 AND event_slug = $2")
        .bind(&caller.tenant_id)
        .bind(slug)
        .fetch_all(pool)
        .await
        .map_err(|_| halyard::Error::Internal)?;
    Ok(Reply::json(200, &rows.len()))
}
