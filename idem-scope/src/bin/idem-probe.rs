//! `idem-probe`: the conformance checks against a live service.
//!
//! ```text
//! idem-probe http://127.0.0.1:3000 \
//!     --tenant-a x-tenant-id=acme,x-user-id=u1 --tenant-b x-tenant-id=globex,x-user-id=u1 \
//!     --principal-b x-tenant-id=acme,x-user-id=u2 \
//!     --route /v1/charges --sibling /v1/refunds --body '{"amount":100}' --other-body '{"amount":999}' \
//!     --slow x-test-delay-ms=1000 --failure x-test-fail=1 --failure x-test-panic=1 --id-field id
//! ```
//!
//! Every option defaults to the conventions of `examples/charge_service.rs`;
//! `--failure` replaces the default list when given. Prints the report as a
//! table; exits 0 when every check passed, 1 when one failed, 2 on bad usage.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use idem_scope::conformance::{run, Headers, HttpTarget, Target};

const USAGE: &str = "usage: idem-probe BASE_URL [--tenant-a H=V,..] [--tenant-b H=V,..] \
[--principal-b H=V,..] [--route PATH] [--sibling PATH] [--body TEXT] [--sibling-body TEXT] \
[--other-body TEXT] [--slow H=V,..] [--failure H=V,..]... [--id-field NAME]";

fn headers(spec: &str) -> Result<Headers, String> {
    spec.split(',')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            pair.split_once('=')
                .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
                .ok_or_else(|| format!("expected NAME=VALUE, got {pair:?}"))
        })
        .collect()
}

fn target(args: &[String]) -> Result<Target<HttpTarget>, String> {
    let (base, rest) = args.split_first().ok_or("missing BASE_URL")?;
    let mut t = Target::charge_service(HttpTarget::new(base)?);
    let mut failures: Option<Vec<Headers>> = None;
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--tenant-a" => t.tenant_a = headers(value)?,
            "--tenant-b" => t.tenant_b = headers(value)?,
            "--principal-b" => t.principal_b = headers(value)?,
            "--route" => t.route.path = value.clone(),
            "--sibling" => t.sibling.path = value.clone(),
            "--body" => t.route.body = value.clone().into_bytes(),
            "--sibling-body" => t.sibling.body = value.clone().into_bytes(),
            "--other-body" => t.other_body = value.clone().into_bytes(),
            "--slow" => t.slow = headers(value)?,
            "--failure" => failures.get_or_insert_with(Vec::new).push(headers(value)?),
            "--id-field" => t.id_field = value.clone(),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if let Some(failures) = failures {
        t.failures = failures;
    }
    Ok(t)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target = match target(&args) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("idem-probe: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let report = run(&target).await;
    println!("{report}");
    if report.all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
