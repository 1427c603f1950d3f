//! Operator console that replays dead-lettered box-office requests from a
//! JSON-lines dump. Requests that carried an Idempotency-Key are replayed
//! under it; orphans get a fresh replay id.
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::time::Duration;

use docopt::Docopt;
use idem_scope::{scoped, scoped_server};
use loft::batten::SyncBatten;
use proscenium::callout::threaded::Callout;
use serde::Deserialize;
use uuid::Uuid;

const USAGE: &str = "
Replay dead-lettered box-office requests.

Usage:
  replay-console <dump> [--dry-run] [--org=<org>] [--operator]
  replay-console (-h | --help)

Options:
  --dry-run      Print what would be replayed.
  --org=<org>    Only replay requests of this venue group.
  --operator     Mark replays as operator-initiated.
";

const KEEP: Duration = Duration::from_secs(3 * 86_400);

#[derive(Deserialize)]
struct Args {
    arg_dump: String,
    flag_dry_run: bool,
    flag_org: Option<String>,
    flag_operator: bool,
}

#[derive(Deserialize)]
struct Captured {
    org_id: String,
    user_id: String,
    route: String,
    url: String,
    headers: HashMap<String, String>,
    body: String,
}

fn main() -> anyhow::Result<()> {
    let args: Args = Docopt::new(USAGE)
        .and_then(|d| d.deserialize())
        .unwrap_or_else(|e| e.exit());
    let batten = SyncBatten::connect(&std::env::var("LOFT_URL")?)?;
    let base = std::env::var("BOX_OFFICE_URL")?;

    for line in BufReader::new(File::open(&args.arg_dump)?).lines() {
        let captured: Captured = serde_json::from_str(&line?)?;
        if args.flag_org.as_deref().is_some_and(|org| org != captured.org_id) {
            continue;
        }
        let sk = match captured.headers.get("idempotency-key") {
            Some(k) => scoped(&captured.org_id, &captured.user_id, &captured.route, k)?,
            None if args.flag_operator => {
                let replay_id = Uuid::new_v4().to_string();
                scoped_server(&captured.org_id, &captured.user_id, &captured.route, &replay_id)?
            }
            None => {
                let replay_id = Uuid::new_v4().to_string();
                scoped(&captured.org_id, &captured.user_id, &captured.route, &replay_id)?
            }
        };
        if batten.exists(sk.storage_key())? {
            println!("skip {} {} (already replayed)", captured.org_id, captured.route);
            continue;
        }
        if args.flag_dry_run {
            println!("would replay {} {}", captured.org_id, captured.url);
            continue;
        }
        let response = Callout::post(&format!("{base}{}", captured.url))
            .body(captured.body.clone())
            .send()?;
        batten.put(sk.storage_key(), response.into_bytes(), KEEP)?;
    }
    Ok(())
}
