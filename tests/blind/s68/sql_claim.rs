use cobble::sql::Db;
use idem_scope::{scoped, Fingerprint, Problem};
use thimble::auth::Caller;
use thimble::extract::RawBody;
use thimble::{Exchange, Reply, Status};

const DONE_SQL: &str = "UPDATE idempotency_records SET status = 'completed', response = ? WHERE scope_version = ? AND tenant_id = ? AND principal_id = ? AND route = ? AND ns = ? AND idem_key = ?";

pub async fn open_account(ex: Exchange, caller: Caller, RawBody(body): RawBody, db: &Db) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "account.open", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let c = sk.columns();
    let fp = Fingerprint::of("account.open", &body);

    db.query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'in_progress')").bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).bind(fp.as_bytes().as_slice()).execute().await.map_err(db_err)?;
    let form: crate::accounts::OpenAccount = serde_json::from_slice(&body).map_err(|_| Reply::status(Status::BadRequest))?;
    let account = crate::accounts::open(db, &caller.tenant_id, form).await.map_err(db_err)?;

    let reply = Reply::json(Status::Created, &account);
    db.query(DONE_SQL)
        .bind(reply.snapshot().body())
        .bind(c.scope_version)
        .bind(c.tenant_id)
        .bind(c.principal_id)
        .bind(c.route)
        .bind(c.ns)
        .bind(c.idem_key)
        .execute()
        .await
        .map_err(db_err)?;
    Ok(reply)
}

fn db_err(e: cobble::sql::Error) -> Reply {
    log::error!("accounts db: {e}");
    Reply::status(Status::ServiceUnavailable)
}
