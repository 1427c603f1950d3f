//! Runs idem-scope's conformance kit against services built with the
//! idempotency crates users pick today, each in its recommended
//! configuration around the same charge/refund handlers as
//! `idem-scope/examples/charge_service.rs`, and prints one report per crate.

#![forbid(unsafe_code)]

#[allow(dead_code)]
#[path = "../../../idem-scope/examples/charge_service.rs"]
mod service;

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use axum::routing::post;
use axum::Router;
use axum_idempotent::{IdempotentLayer, IdempotentOptions};
use idem_scope::conformance::{run, Target};
use ruts::store::moka::MokaStore;
use ruts::store::Ttl;
use ruts::{CookieOptions, Session, SessionLayer};
use tower::ServiceExt;
use tower_cookies::CookieManagerLayer;

/// axum-idempotent 0.6 in "direct key mode" (its recommended mode): the
/// `Idempotency-Key` value is the cache key, required, stored in the
/// caller's session (ruts, in-memory moka store). An identity is a session.
fn axum_idempotent_app() -> Router {
    let store = Arc::new(MokaStore::builder().build());
    let cookies = CookieOptions::build()
        .name("session")
        .max_age(3600)
        .path("/");
    let options =
        IdempotentOptions::default().use_idempotency_key_header(Some("idempotency-key"), true);
    Router::new()
        .route("/v1/charges", post(service::charge))
        .route("/v1/refunds", post(service::refund))
        .route(
            "/login",
            post(|session: Session<MokaStore>| async move {
                let ttl = Ttl::new(3600).expect("ttl");
                session
                    .set("user", &String::from("someone"), ttl, None)
                    .await
                    .expect("session set");
                "signed in"
            }),
        )
        .layer(IdempotentLayer::<MokaStore>::new(options))
        .layer(SessionLayer::new(store).with_cookie_options(cookies))
        .layer(CookieManagerLayer::new())
        .with_state(service::AppState::default())
}

/// Signs in once: the session cookie that identifies this caller from now on.
async fn login(app: &Router, who: &str) -> String {
    let req = Request::post("/login")
        .header("idempotency-key", format!("login-{who}"))
        .body(Body::empty())
        .expect("request");
    let res = app.clone().oneshot(req).await.expect("login");
    let cookie = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("session="))
        .unwrap_or_else(|| panic!("no session cookie for {who}: {:?}", res.headers()));
    cookie.split(';').next().unwrap_or_default().to_owned()
}

fn with_cookie(mut headers: Vec<(String, String)>, cookie: String) -> Vec<(String, String)> {
    headers.push(("cookie".to_owned(), cookie));
    headers
}

#[tokio::main]
async fn main() {
    let app = axum_idempotent_app();
    let mut target = Target::charge_service(app.clone());
    target.tenant_a = with_cookie(target.tenant_a, login(&app, "tenant_a-u1").await);
    target.tenant_b = with_cookie(target.tenant_b, login(&app, "tenant_b-u1").await);
    target.principal_b = with_cookie(target.principal_b, login(&app, "tenant_a-u2").await);
    let report = run(&target).await;
    println!("## axum-idempotent 0.6.0 (direct key mode, session store)\n\n{report}\n");
}
