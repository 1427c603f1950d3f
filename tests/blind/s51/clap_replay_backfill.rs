//! `idem-backfill`: replays captured request/response pairs into the replay
//! store after a storage migration, so retries in flight still dedup.
use std::io::BufRead;
use std::path::PathBuf;

use clap::Parser;
use serde::Deserialize;

#[derive(Parser, Debug)]
#[command(name = "idem-backfill")]
struct Args {
    /// Tenant the capture belongs to.
    #[arg(long)]
    tenant: Option<String>,
    /// Principal that sent the captured requests.
    #[arg(long)]
    actor: String,
    #[arg(long, default_value_t = 500)]
    batch: usize,
    #[arg(long)]
    out: Option<PathBuf>,
    capture: PathBuf,
}

#[derive(Deserialize)]
struct Captured {
    route: String,
    headers: std::collections::HashMap<String, String>,
    response: String,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let tenant = args.tenant.clone().unwrap_or(String::from("shared"));
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("-"));
    let store = replay_store::open(&std::env::var("REPLAY_STORE_URL")?)?;

    let reader = std::io::BufReader::new(std::fs::File::open(&args.capture)?);
    let mut written = 0usize;
    for line in reader.lines() {
        let rec: Captured = serde_json::from_str(&line?)?;
        let Some(k) = rec.headers.get("Idempotency-Key") else {
            continue;
        };
        let key = idem_scope::scoped(&tenant, &args.actor, &rec.route, k)?;
        store.put(key.storage_key(), rec.response.as_bytes())?;
        written += 1;
        if written % args.batch == 0 {
            eprintln!("{written} records -> {}", out.display());
        }
    }
    Ok(())
}
