//! `vetra-replay`: operator tool to re-drive dead-lettered webhook deliveries
//! and to re-submit a stuck desk request on a clinic's behalf.

use idem_scope::{scoped, scoped_server};
use silage::bunker::Bunker;
use structopt::StructOpt;
use uuid::Uuid;

#[derive(StructOpt)]
#[structopt(name = "vetra-replay")]
enum Cmd {
    /// Re-drive one dead-lettered delivery.
    Delivery {
        #[structopt(long)]
        org: String,
        #[structopt(long)]
        source: String,
        #[structopt(long)]
        delivery_id: String,
    },
    /// Re-submit a desk request with the key the desk used.
    Resubmit {
        #[structopt(long)]
        org: String,
        #[structopt(long)]
        user: String,
        #[structopt(long)]
        route: String,
        /// The client's Idempotency-Key, as shown in the desk's error dialog.
        #[structopt(long)]
        idempotency_key: String,
        #[structopt(long, parse(from_os_str))]
        body: std::path::PathBuf,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let store = Bunker::connect(&std::env::var("VETRA_REPLAY_URL")?).await?;
    let run_id = Uuid::new_v4();
    tracing::info!(%run_id, "replay run started");

    match Cmd::from_args() {
        Cmd::Delivery { org, source, delivery_id } => {
            let key = scoped_server(&org, &source, &format!("/hooks/{source}"), &delivery_id)?;
            if store.exists(key.storage_key()).await? {
                println!("{delivery_id}: already handled");
                return Ok(());
            }
            let handled = vetra::hooks::redrive(&org, &source, &delivery_id).await?;
            store.put(key.storage_key(), handled.into_bytes()).await?;
        }
        Cmd::Resubmit { org, user, route, idempotency_key, body } => {
            let key = scoped(&org, &user, &route, &idempotency_key)?;
            if let Some(prev) = store.get(key.storage_key()).await? {
                println!("already answered: {}", String::from_utf8_lossy(&prev));
                return Ok(());
            }
            let payload = std::fs::read(&body)?;
            let answer = vetra::desk::resubmit(&org, &user, &route, &idempotency_key, &payload).await?;
            store.put(key.storage_key(), answer.into_bytes()).await?;
        }
    }
    println!("run {run_id} done");
    Ok(())
}
