//! actix-idempotent 0.1.1 in its documented setup (`IdempotentFactory` on
//! the routes, `SessionMiddleware` with the Redis session store), around
//! handlers equivalent to the example's, served on loopback and probed over
//! HTTP by idem-scope's conformance kit. Needs `redis-server` on PATH.

#![forbid(unsafe_code)]

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use actix_idempotent::{IdempotentFactory, IdempotentOptions};
use actix_session::storage::RedisSessionStore;
use actix_session::{Session, SessionMiddleware};
use actix_web::cookie::Key;
use actix_web::web::post;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer};
use idem_scope::conformance::{run, HttpTarget, Target};

static EXECUTIONS: AtomicU64 = AtomicU64::new(0);

async fn create(req: HttpRequest, object: &'static str) -> HttpResponse {
    let h = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    if let Some(ms) = h("x-test-delay-ms").and_then(|v| v.parse().ok()) {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    if h("x-test-fail").is_some() {
        return HttpResponse::ServiceUnavailable().body("payment provider unavailable");
    }
    if h("x-test-panic").is_some() {
        panic!("simulated handler bug");
    }
    let n = EXECUTIONS.fetch_add(1, Ordering::SeqCst) + 1;
    HttpResponse::Created()
        .content_type("application/json")
        .body(format!(r#"{{"id":"{object}_{n}","object":"{object}"}}"#))
}

async fn charge(req: HttpRequest) -> HttpResponse {
    create(req, "charge").await
}

async fn refund(req: HttpRequest) -> HttpResponse {
    create(req, "refund").await
}

async fn login(session: Session) -> HttpResponse {
    session.insert("user", "someone").expect("session insert");
    HttpResponse::Ok().body("signed in")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
}

struct Redis(Child);

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    let redis_port = free_port();
    let _redis = Redis(
        Command::new("redis-server")
            .args(["--port", &redis_port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server on PATH"),
    );
    std::thread::sleep(Duration::from_millis(500));
    let port = free_port();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let url = format!("redis://127.0.0.1:{redis_port}");
            let store = RedisSessionStore::new(url)
                .await
                .expect("redis session store");
            let key = Key::generate();
            HttpServer::new(move || {
                let idem = IdempotentFactory::new(IdempotentOptions::default());
                App::new()
                    .wrap(
                        SessionMiddleware::builder(store.clone(), key.clone())
                            .cookie_name("session".to_owned())
                            .cookie_secure(false)
                            .build(),
                    )
                    .route("/login", post().to(login))
                    .route("/v1/charges", post().to(charge).wrap(idem.clone()))
                    .route("/v1/refunds", post().to(refund).wrap(idem))
            })
            .workers(2)
            .bind(("127.0.0.1", port))
            .expect("bind")
            .run()
            .await
            .expect("server");
        });
    });
    std::thread::sleep(Duration::from_millis(500));

    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async move {
        let base = format!("http://127.0.0.1:{port}");
        let mut target = Target::charge_service(HttpTarget::new(&base).expect("url"));
        for (who, headers) in [
            ("a", &mut target.tenant_a),
            ("b", &mut target.tenant_b),
            ("p", &mut target.principal_b),
        ] {
            headers.push(("cookie".to_owned(), login_cookie(port, who)));
        }
        let report = run(&target).await;
        println!("## actix-idempotent 0.1.1 (defaults: request hash as key, Redis session store)\n\n{report}\n");
    });
}

/// Signs in over a plain TCP request and returns `session=..` from Set-Cookie.
fn login_cookie(port: u16, who: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    write!(
        s,
        "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Who: {who}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read");
    text.lines()
        .find_map(|l| {
            let l = l
                .strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))?;
            l.starts_with("session=")
                .then(|| l.split(';').next().unwrap_or_default().to_owned())
        })
        .unwrap_or_else(|| panic!("no session cookie: {text}"))
}
