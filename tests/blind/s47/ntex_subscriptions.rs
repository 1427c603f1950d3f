use idem_scope::{scoped, ClaimGuard, ScopedKey};
use ntex::web::{self, types::Json, types::State, HttpRequest, HttpResponse};
use rbatis::{Error, RBatis};
use rbs::to_value;
use serde::Deserialize;

pub struct Deps {
    pub rb: RBatis,
}

#[derive(Deserialize)]
pub struct SubscribeIn {
    pub plan: String,
    pub seats: u32,
}

pub struct Auth {
    pub account_id: String,
    pub user_id: String,
}

fn auth(req: &HttpRequest) -> Result<Auth, HttpResponse> {
    let h = req.headers();
    let account_id = h.get("x-account-id").and_then(|v| v.to_str().ok()).ok_or_else(|| HttpResponse::Unauthorized().finish())?;
    let user_id = h.get("x-user-id").and_then(|v| v.to_str().ok()).ok_or_else(|| HttpResponse::Unauthorized().finish())?;
    Ok(Auth { account_id: account_id.into(), user_id: user_id.into() })
}

async fn provision(_rb: &RBatis, _input: &SubscribeIn) -> Result<String, Error> {
    Ok("sub_123".into())
}

#[web::post("/v1/subscriptions")]
pub async fn subscribe(req: HttpRequest, st: State<Deps>, input: Json<SubscribeIn>) -> Result<HttpResponse, Error> {
    let who = match auth(&req) {
        Ok(a) => a,
        Err(resp) => return Ok(resp),
    };
    let key = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()).unwrap_or("");
    let sk = scoped(&who.account_id, &who.user_id, "subscriptions.create", key).map_err(|e| Error::from(e.to_string()))?;

    rb_claim_then_run(&st.rb, &sk, &input).await
}

async fn rb_claim_then_run(rb: &RBatis, sk: &ScopedKey, input: &SubscribeIn) -> Result<HttpResponse, Error> {
    let c = sk.columns();
    rb.exec("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES (?, ?, ?, ?, ?, ?, 'in_progress')", vec![to_value!(c.scope_version), to_value!(c.tenant_id), to_value!(c.principal_id), to_value!(c.route), to_value!(c.ns), to_value!(c.idem_key)]).await?;
    let sub_id = provision(rb, input).await?;
    let body = format!("{{\"subscription\":\"{}\"}}", sub_id);
    rb.exec("UPDATE idempotency_records SET status = 'completed', response = ? WHERE tenant_id = ? AND principal_id = ? AND route = ? AND idem_key = ?", vec![to_value!(&body), to_value!(c.tenant_id), to_value!(c.principal_id), to_value!(c.route), to_value!(c.idem_key)]).await?;
    Ok(HttpResponse::Created().body(body))
}

#[web::post("/v1/seats")]
pub async fn add_seats(req: HttpRequest, st: State<Deps>, input: Json<SubscribeIn>) -> Result<HttpResponse, Error> {
    let who = auth(&req).map_err(|_| Error::from("unauthorized"))?;
    let key = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| Error::from("missing key"))?;
    let sk = scoped(&who.account_id, &who.user_id, "seats.add", key).map_err(|e| Error::from(e.to_string()))?;

    let c = sk.columns();
    st.rb.exec("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES (?, ?, ?, ?, ?, ?, 'in_progress')", vec![to_value!(c.scope_version), to_value!(c.tenant_id), to_value!(c.principal_id), to_value!(c.route), to_value!(c.ns), to_value!(c.idem_key)]).await?;
    let release_rb = st.rb.clone();
    let release_key = sk.clone();
    let guard = ClaimGuard::new(move || {
        ntex::rt::spawn(async move {
            let _ = release_rb
                .exec("DELETE FROM idempotency_records WHERE tenant_id = ? AND principal_id = ? AND route = ? AND idem_key = ?", vec![to_value!(release_key.columns().tenant_id), to_value!(release_key.columns().principal_id), to_value!(release_key.columns().route), to_value!(release_key.columns().idem_key)])
                .await;
        });
    });
    let sub_id = provision(&st.rb, &input).await?;
    let body = format!("{{\"seats\":{},\"sub\":\"{}\"}}", input.seats, sub_id);
    st.rb.exec("UPDATE idempotency_records SET status = 'completed', response = ? WHERE tenant_id = ? AND principal_id = ? AND route = ? AND idem_key = ?", vec![to_value!(&body), to_value!(c.tenant_id), to_value!(c.principal_id), to_value!(c.route), to_value!(c.idem_key)]).await?;
    guard.complete();
    Ok(HttpResponse::Ok().body(body))
}
