//! Operator replay tool: re-runs a failed pledge confirmation for a member,
//! either under the member's original idempotency key or as a fresh
//! operator replay.
//!
//! replay --tenant KQED --user u_123 --route /v1/pledges [--idempotency-key K] [--dry-run]

use getargs::{Arg, Options};
use idem_scope::scoped;
use spool::cart::SyncCart;
use uuid::Uuid;

#[derive(Default)]
struct Args {
    tenant_id: Option<String>,
    user_id: Option<String>,
    route: Option<String>,
    /// The member's original `Idempotency-Key`, exactly as the portal sent it.
    idempotency_key: Option<String>,
    dry_run: bool,
}

fn parse(argv: &[String]) -> Result<Args, String> {
    let mut opts = Options::new(argv.iter().map(String::as_str));
    let mut args = Args::default();
    while let Some(arg) = opts.next_arg().map_err(|e| e.to_string())? {
        match arg {
            Arg::Long("tenant") => args.tenant_id = Some(opts.value().map_err(|e| e.to_string())?.to_owned()),
            Arg::Long("user") => args.user_id = Some(opts.value().map_err(|e| e.to_string())?.to_owned()),
            Arg::Long("route") => args.route = Some(opts.value().map_err(|e| e.to_string())?.to_owned()),
            Arg::Long("idempotency-key") => args.idempotency_key = Some(opts.value().map_err(|e| e.to_string())?.to_owned()),
            Arg::Long("dry-run") => args.dry_run = true,
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    Ok(args)
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&argv) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("replay: {e}");
            std::process::exit(2);
        }
    };
    let (Some(tenant_id), Some(user_id), Some(route)) = (args.tenant_id, args.user_id, args.route) else {
        eprintln!("replay: --tenant, --user and --route are required");
        std::process::exit(2);
    };

    let cart = SyncCart::open_from_env().expect("confirmation cart");
    let key = match args.idempotency_key.as_deref() {
        Some(client_key) => scoped(&tenant_id, &user_id, &route, client_key),
        None => scoped(&tenant_id, &user_id, &route, &format!("replay-{}", Uuid::new_v4())),
    }
    .expect("valid scope");

    if args.dry_run {
        println!("would replay under {}", key.storage_key());
        return;
    }
    let confirmation = larkspur::confirmations::rebuild(&tenant_id, &user_id, &route).expect("rebuild confirmation");
    cart.put(key.storage_key(), &confirmation).expect("store confirmation");
    println!("replayed {tenant_id}/{user_id} via {route}");
}
