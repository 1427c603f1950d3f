//! `bursar-replay`: operator console for payment requests that ended in the
//! dead-letter table (gateway timeouts during the add/drop rush).
//!
//!   bursar-replay resubmit <tenant>   re-run with the student's own retry token
//!   bursar-replay replay <tenant>     re-run as a fresh attempt by the operator
//!   bursar-replay drill <tenant>      same as replay, on the server namespace

use std::env;

use idem_scope::{scoped, scoped_server, ScopedKey};
use satchel::pouch::Pouch;
use satchel::quill::Quill;

use crate::bursar::{DeadLetter, Gateway};

async fn run(pouch: &Pouch, sk: &ScopedKey, gateway: &Gateway, letter: &DeadLetter) -> anyhow::Result<()> {
    if pouch.exists(sk.storage_key()).await? {
        println!("{}: already answered, skipping", letter.letter_id);
        return Ok(());
    }
    let outcome = gateway.resend(&letter.request_body).await?;
    pouch.put(sk.storage_key(), &outcome.to_bytes()).await?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = env::args().collect();
    let (Some(command), Some(tenant_id)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: bursar-replay <resubmit|replay|drill> <tenant>");
        std::process::exit(2);
    };
    let actor = env::var("USER")?;
    let pouch = Pouch::connect(&env::var("REPLY_POUCH_URL")?).await?;
    let quill = Quill::connect(&env::var("BURSAR_DB_URL")?).await?;
    let gateway = Gateway::from_env()?;
    let letters = DeadLetter::open_for(&quill, tenant_id).await?;

    for letter in &letters {
        match command.as_str() {
            "resubmit" => {
                let Some(key) = letter.headers.get("Idempotency-Key") else {
                    eprintln!("{}: no Idempotency-Key recorded; use replay", letter.letter_id);
                    continue;
                };
                let sk = scoped(tenant_id, &letter.user_id, &letter.route, key)?;
                run(&pouch, &sk, &gateway, letter).await?;
            }
            "replay" => {
                let replay_id = cuid::cuid2();
                tracing::info!(%replay_id, letter = %letter.letter_id, %actor, "operator replay");
                let sk = scoped(tenant_id, &actor, &letter.route, &replay_id)?;
                run(&pouch, &sk, &gateway, letter).await?;
            }
            "drill" => {
                let drill_id = cuid::cuid2();
                let sk = scoped_server(tenant_id, &actor, &letter.route, &drill_id)?;
                run(&pouch, &sk, &gateway, letter).await?;
            }
            other => anyhow::bail!("unknown command {other}"),
        }
    }
    Ok(())
}
