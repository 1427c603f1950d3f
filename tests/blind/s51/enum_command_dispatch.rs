//! Command bus for the payments edge. Requests are parsed into commands first;
//! the dispatcher is the only place that touches the replay table.
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::{LazyLock, RwLock};

use http::HeaderMap;

#[derive(Clone)]
pub struct Outcome {
    pub status: u16,
    pub body: String,
}

static REPLAYS: LazyLock<RwLock<HashMap<String, Outcome>>> = LazyLock::new(Default::default);

pub enum Command {
    Charge { idem: String, cents: i64 },
    Refund { idem: String, charge: String },
    Ping,
}

pub fn parse(headers: &HeaderMap, path: &str, body: &str) -> anyhow::Result<Command> {
    let idem = || -> anyhow::Result<String> {
        Ok(headers
            .get("Idempotency-Key")
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
            .to_str()?
            .to_owned())
    };
    Ok(match path {
        "/v1/charges" => Command::Charge { idem: idem()?, cents: body.parse()? },
        "/v1/refunds" => Command::Refund { idem: idem()?, charge: body.to_owned() },
        _ => Command::Ping,
    })
}

pub fn dispatch(cmd: Command) -> Outcome {
    match cmd {
        Command::Charge { idem, cents } => match REPLAYS.write().unwrap().entry(idem) {
            Entry::Occupied(o) => o.get().clone(),
            Entry::Vacant(v) => v.insert(charge(cents)).clone(),
        },
        Command::Refund { idem, charge } => {
            tracing::info!(%idem, %charge, "refund forwarded to the refunds service");
            forward_refund(&idem, &charge)
        }
        Command::Ping => Outcome { status: 200, body: "pong".into() },
    }
}

fn charge(cents: i64) -> Outcome {
    Outcome { status: 201, body: format!("{{\"cents\":{cents}}}") }
}

fn forward_refund(idem: &str, charge: &str) -> Outcome {
    let req = http::Request::post("http://refunds.internal/v1/refunds")
        .header("Idempotency-Key", idem)
        .body(charge.to_owned());
    Outcome { status: if req.is_ok() { 202 } else { 500 }, body: String::new() }
}
