//! Operator console: inspect a customer's recorded request and, if asked,
//! replay it against the billing engine.
//!
//! usage: replay_console --tenant T --user U --route R [--idempotency-key K] [--replay FILE]

use std::ffi::OsString;

use aquifer::tank::SyncTank;
use idem_scope::scoped;
use ulid::Ulid;

#[derive(Default)]
struct Opts {
    tenant_id: String,
    user_id: String,
    route: String,
    /// The client's Idempotency-Key of the request to inspect.
    idempotency_key: Option<String>,
    replay_file: Option<OsString>,
}

fn parse_opts() -> Result<Opts, String> {
    let raw = clap_lex::RawArgs::from_args();
    let mut cursor = raw.cursor();
    raw.next(&mut cursor);
    let mut opts = Opts::default();
    while let Some(arg) = raw.next(&mut cursor) {
        let Some((flag, value)) = arg.to_long() else {
            return Err(format!("unexpected argument {:?}", arg.to_value_os()));
        };
        let value = match value {
            Some(v) => v.to_owned(),
            None => raw.next_os(&mut cursor).ok_or_else(|| format!("--{flag:?} needs a value"))?.to_owned(),
        };
        match flag {
            Ok("tenant") => opts.tenant_id = value.to_string_lossy().into_owned(),
            Ok("user") => opts.user_id = value.to_string_lossy().into_owned(),
            Ok("route") => opts.route = value.to_string_lossy().into_owned(),
            Ok("idempotency-key") => opts.idempotency_key = Some(value.to_string_lossy().into_owned()),
            Ok("replay") => opts.replay_file = Some(value),
            other => return Err(format!("unknown flag {other:?}")),
        }
    }
    Ok(opts)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let opts = parse_opts()?;
    let tank = SyncTank::open(std::env::var("REPLAY_TANK_URL")?)?;
    if let Some(k) = opts.idempotency_key.as_deref() {
        let ck = scoped(&opts.tenant_id, &opts.user_id, &opts.route, k)?;
        match tank.get(ck.storage_key())? {
            Some(rec) => println!("{}", String::from_utf8_lossy(&rec)),
            None => println!("no record for {k}"),
        }
    }
    if let Some(path) = opts.replay_file {
        let body = std::fs::read(path)?;
        let replay_id = Ulid::new();
        let rk = scoped(&opts.tenant_id, &opts.user_id, &opts.route, &replay_id.to_string())?;
        tank.put(rk.storage_key(), &body)?;
        println!("queued replay {replay_id}");
    }
    Ok(())
}
