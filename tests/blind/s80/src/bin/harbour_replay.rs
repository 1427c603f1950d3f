//! `harbour-replay`: operator console for the reply store.
//!
//!   harbour-replay inspect <tenant> <user> <route> <key>
//!   harbour-replay replay  <tenant> <route> <event-id>
//!   harbour-replay redrive <tenant> <route> <event-id>

use std::process::ExitCode;

use ballast::hold::SyncHold;
use idem_scope::{scoped, scoped_server};

struct Inspect {
    tenant: String,
    user_id: String,
    route: String,
    /// The client's `Idempotency-Key` exactly as the client sent it.
    idempotency_key: String,
}

struct Replay {
    tenant: String,
    route: String,
    event_id: String,
}

fn usage() -> ExitCode {
    eprintln!("usage: harbour-replay (inspect <tenant> <user> <route> <key> | replay|redrive <tenant> <route> <event-id>)");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hold = match SyncHold::open(&std::env::var("BALLAST_URL").unwrap_or_else(|_| "ballast://localhost".into())) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("cannot open reply store: {e}");
            return ExitCode::FAILURE;
        }
    };
    let res = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["inspect", t, u, r, k] => inspect(&hold, Inspect { tenant: t.to_string(), user_id: u.to_string(), route: r.to_string(), idempotency_key: k.to_string() }),
        ["replay", t, r, e] => replay(&hold, Replay { tenant: t.to_string(), route: r.to_string(), event_id: e.to_string() }),
        ["redrive", t, r, e] => redrive(&hold, Replay { tenant: t.to_string(), route: r.to_string(), event_id: e.to_string() }),
        _ => return usage(),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e:#}");
            ExitCode::FAILURE
        }
    }
}

fn inspect(hold: &SyncHold, cmd: Inspect) -> anyhow::Result<()> {
    let key = scoped(&cmd.tenant, &cmd.user_id, &cmd.route, &cmd.idempotency_key)?;
    match hold.get(key.storage_key())? {
        Some(reply) => println!("{}\n{}", key.storage_key().replace('\0', " | "), String::from_utf8_lossy(&reply)),
        None => println!("no reply stored for {}", cmd.idempotency_key),
    }
    Ok(())
}

fn replay(hold: &SyncHold, cmd: Replay) -> anyhow::Result<()> {
    let event = harbour_events::load(&cmd.event_id)?;
    let key = scoped(&cmd.tenant, "operator", &cmd.route, &cmd.event_id)?;
    if hold.exists(key.storage_key())? {
        println!("event {} already applied", cmd.event_id);
        return Ok(());
    }
    let outcome = harbour_events::apply(&event)?;
    hold.put(key.storage_key(), &outcome)?;
    Ok(())
}

fn redrive(hold: &SyncHold, cmd: Replay) -> anyhow::Result<()> {
    let event = harbour_events::load(&cmd.event_id)?;
    let key = scoped_server(&cmd.tenant, "operator", &cmd.route, &cmd.event_id)?;
    if hold.exists(key.storage_key())? {
        println!("event {} already redriven", cmd.event_id);
        return Ok(());
    }
    let outcome = harbour_events::apply(&event)?;
    hold.put(key.storage_key(), &outcome)?;
    Ok(())
}
