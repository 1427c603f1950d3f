//! Operator console: `replay-console --tenant t --user-id u --replay-id r` re-runs a
//! failed gondola-ticket fulfilment; the same module records API calls.

use argp::FromArgs;
use cornice::drift::SyncDrift;
use telemark::blocking::Turn;
use telemark::pass::Skier;

#[derive(FromArgs)]
/// Replay a failed fulfilment.
struct Args {
    /// tenant of the original order
    #[argp(option)]
    tenant: String,
    /// user of the original order
    #[argp(option)]
    user_id: String,
    /// operator-chosen replay id
    #[argp(option)]
    replay_id: String,
}

pub fn record_api_call(turn: &Turn, skier: &Skier, kv: &SyncDrift, body: &[u8]) -> Option<()> {
    let key = turn.header("Idempotency-Key")?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "gondola.fulfil", key).ok()?;
    kv.put(sk.storage_key(), body);
    Some(())
}

fn main() -> anyhow::Result<()> {
    let args: Args = argp::parse_args_or_exit(argp::DEFAULT);
    let kv = SyncDrift::open_from_env()?;

    let sk = idem_scope::scoped(&args.tenant, &args.user_id, "gondola.fulfil", &args.replay_id)?;
    if kv.get(sk.storage_key()).is_some() {
        println!("replay {} already done", args.replay_id);
        return Ok(());
    }
    let out = crate::gondola::fulfil_again(&args.tenant, &args.user_id)?;
    kv.put(sk.storage_key(), &out);
    println!("replayed {}", args.replay_id);
    Ok(())
}
