use std::time::Duration;

use eyre::{eyre, Result};
use idem_scope::scoped;
use pico_args::Arguments;
use sextant::locker::SyncLocker;
use sextant::sql::Pool;

struct Args {
    tenant: String,
    user_id: String,
    route: String,
    event_id: String,
    dry_run: bool,
}

fn parse() -> Result<Args> {
    let mut a = Arguments::from_env();
    Ok(Args {
        tenant: a.value_from_str("--tenant")?,
        user_id: a.value_from_str("--user")?,
        route: a.value_from_str("--route")?,
        event_id: a.value_from_str("--event")?,
        dry_run: a.contains("--dry-run"),
    })
}

fn main() -> Result<()> {
    let args = parse()?;
    let locker = SyncLocker::connect(&std::env::var("LOCKER_URL")?)?;
    let pool = Pool::connect_blocking(&std::env::var("DATABASE_URL")?)?;

    let payload: Vec<u8> = pool
        .query("SELECT payload FROM dead_letters WHERE event_id = $1")
        .bind(&args.event_id)
        .fetch_one_blocking()?
        .get(0);

    let replay_id = format!("replay:{}", args.event_id);
    let sk = scoped(&args.tenant, &args.user_id, &args.route, &replay_id)?;
    if locker.exists(sk.storage_key())? {
        println!("already replayed {}", args.event_id);
        return Ok(());
    }
    if args.dry_run {
        println!("would replay {} bytes for {}", payload.len(), replay_id);
        return Ok(());
    }
    crate::dispatch::redeliver_blocking(&args.route, &payload).map_err(|e| eyre!("redeliver: {e}"))?;
    locker.put(sk.storage_key(), b"replayed", Duration::from_secs(30 * 86_400))?;
    Ok(())
}

pub fn client_replay_check(locker: &SyncLocker, tenant: &str, user_id: &str, route: &str, headers: &[(String, String)]) -> Result<bool> {
    let key = headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("Idempotency-Key"))
        .map(|(_, v)| v.clone())
        .ok_or_else(|| eyre!("request had no key"))?;
    let sk = scoped(tenant, user_id, route, &key)?;
    Ok(locker.exists(sk.storage_key())?)
}
