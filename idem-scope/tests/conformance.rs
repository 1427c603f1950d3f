//! The kit passes the layered example and fails each broken variant on
//! exactly the checks its bug breaks, in-process and through `idem-probe`
//! against live servers on loopback.

mod support;

use std::process::Command;

use idem_scope::conformance::{run, Target, CHECKS};
use support::broken::{self, Bug};
use support::service::{self, AppState};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn layered_example_passes_every_check() {
    let report = run(&Target::charge_service(service::app(AppState::default()))).await;
    assert_eq!(report.outcomes.len(), CHECKS.len());
    assert!(report.all_passed(), "{report}");
    let names: Vec<_> = report.outcomes.iter().map(|o| o.check).collect();
    assert_eq!(names, CHECKS.map(|(name, _)| name));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_broken_variant_fails_exactly_its_checks() {
    for bug in [
        Bug::RawKey,
        Bug::TenantOnly,
        Bug::BodyHashAsKey,
        Bug::NoRelease,
    ] {
        let report = run(&Target::charge_service(broken::app(bug))).await;
        println!("{bug:?}\n{report}\n");
        assert_eq!(report.failed(), bug.fails(), "{bug:?}:\n{report}");
    }
}

async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

async fn probe(base: String) -> (Option<i32>, String) {
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_idem-probe"))
            .arg(base)
            .output()
            .expect("run idem-probe")
    })
    .await
    .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idem_probe_passes_the_live_example_and_fails_a_live_broken_one() {
    let (code, out) = probe(serve(service::app(AppState::default())).await).await;
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("9 of 9 checks passed"), "{out}");
    assert!(
        out.contains("| tenant_isolation | PASS | A: 201 id=charge_"),
        "{out}"
    );

    let (code, out) = probe(serve(broken::app(Bug::NoRelease)).await).await;
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("| failure_releases | FAIL |"), "{out}");
    assert!(out.contains("8 of 9 checks passed"), "{out}");

    let usage = Command::new(env!("CARGO_BIN_EXE_idem-probe"))
        .args(["ftp://x", "--route"])
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
}
