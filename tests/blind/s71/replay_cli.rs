//! `fare-replay`: operator tool that re-drives dead-lettered tap events and
//! failed clearing submissions for one agency. Everything it writes goes
//! into the server namespace.

use std::time::Duration;

use gumdrop::Options;
use hopper::bay::Bay;
use hopper::lease::Leases;
use idem_scope::{scoped_server, Namespace, ScopedKey};
use uuid::Uuid;

#[derive(Debug, Options)]
struct Args {
    #[options(help = "print help")]
    help: bool,
    #[options(required, help = "agency (tenant) id")]
    tenant: String,
    #[options(help = "dead-lettered tap event ids")]
    event: Vec<String>,
    #[options(help = "only print what would be replayed")]
    dry_run: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse_args_default_or_exit();
    let tenant = args.tenant.trim();
    let bay = Bay::connect(&std::env::var("BAY_URL")?).await?;
    let leases = Leases::connect(&std::env::var("LEASE_URL")?).await?;

    let lease = leases.acquire(&format!("fare-replay:{tenant}"), Duration::from_secs(900)).await?;
    for event_id in &args.event {
        let key = scoped_server(tenant, "replay-cli", "taps.record", event_id)?;
        if bay.exists(key.storage_key()).await? {
            println!("{event_id}: already applied");
            continue;
        }
        if args.dry_run {
            println!("{event_id}: would replay");
            continue;
        }
        let replay_id = Uuid::new_v4();
        let marker = ScopedKey::new(Namespace::Server, tenant, "replay-cli", "clearing.submit", &replay_id.to_string())?;
        crate::clearing::resubmit_tap(tenant, event_id).await?;
        bay.put(key.storage_key(), b"replayed".to_vec()).await?;
        bay.put(marker.storage_key(), event_id.as_bytes().to_vec()).await?;
        println!("{event_id}: replayed as {replay_id}");
    }
    leases.surrender(lease).await?;
    Ok(())
}
