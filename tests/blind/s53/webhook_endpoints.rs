use diesel::prelude::*;
use idem_scope::{scoped, ScopedKey};
use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::State;
use sha2::{Digest, Sha256};

use crate::auth::StaffSession;
use crate::db::PgPool;
use crate::guards::IdemKey;
use crate::schema::idempotency_records::dsl as ir;
use crate::webhooks::{EndpointConfig, WebhookRegistry};

fn find_response(conn: &mut PgConnection, key: &ScopedKey) -> QueryResult<Option<serde_json::Value>> {
    let c = key.columns();
    ir::idempotency_records
        .find((c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key))
        .select(ir::response)
        .first::<Option<serde_json::Value>>(conn)
        .optional()
        .map(Option::flatten)
}

#[rocket::put("/v1/webhooks/endpoint", data = "<cfg>")]
pub async fn put_endpoint(
    staff: StaffSession,
    key: IdemKey,
    cfg: Json<EndpointConfig>,
    pool: &State<PgPool>,
    registry: &State<WebhookRegistry>,
) -> Result<Json<serde_json::Value>, Status> {
    let merchant_id = staff.acting_as.as_ref().map_or("public".to_owned(), |m| m.merchant_id.clone());
    let scoped_key = scoped(&merchant_id, &staff.user_id, "webhooks.endpoint.put", key.as_str()).map_err(|_| Status::BadRequest)?;
    let mut conn = pool.get().map_err(|_| Status::ServiceUnavailable)?;
    if let Some(prev) = find_response(&mut conn, &scoped_key).map_err(|_| Status::InternalServerError)? {
        return Ok(Json(prev));
    }
    let body_hash = Sha256::digest(serde_json::to_vec(&*cfg).map_err(|_| Status::BadRequest)?);
    let saved = registry.upsert(&merchant_id, cfg.into_inner()).await.map_err(|_| Status::UnprocessableEntity)?;
    let body = serde_json::to_value(&saved).map_err(|_| Status::InternalServerError)?;
    let c = scoped_key.columns();
    diesel::insert_into(ir::idempotency_records)
        .values((
            ir::scope_version.eq(c.scope_version),
            ir::tenant_id.eq(c.tenant_id),
            ir::principal_id.eq(c.principal_id),
            ir::route.eq(c.route),
            ir::ns.eq(c.ns),
            ir::idem_key.eq(c.idem_key),
            ir::fingerprint.eq(body_hash.as_slice()),
            ir::status.eq("completed"),
            ir::response.eq(Some(&body)),
        ))
        .execute(&mut conn)
        .map_err(|_| Status::InternalServerError)?;
    Ok(Json(body))
}
