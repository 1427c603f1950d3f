use std::env;
use std::fs;
use std::process::ExitCode;

use idem_scope::scoped;
use skerry::stash::BlockingStash;

use crate::capture::CapturedRequest;
use crate::orders::resend_to_partner;

const USAGE: &str = "usage: replay-console resend <capture.json> | replay <tenant> <user> <event-id>";

/// Operator console over the order-sync stash.
pub struct Console {
    stash: BlockingStash,
}

impl Console {
    fn resend(&self, path: &str) -> Result<(), String> {
        let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
        let captured = CapturedRequest::parse(&text).map_err(|e| e.to_string())?;
        let key = captured.header("Idempotency-Key").ok_or("capture has no key header")?;
        let slot = scoped(&captured.tenant_id, &captured.user_id, &captured.route, key).map_err(|e| e.to_string())?;
        if self.stash.get(slot.storage_key()).map_err(|e| e.to_string())?.is_some() {
            println!("already answered, nothing to do");
            return Ok(());
        }
        let ack = resend_to_partner(&captured.tenant_id, &captured.body).map_err(|e| e.to_string())?;
        self.stash.put(slot.storage_key(), &ack).map_err(|e| e.to_string())?;
        println!("resent request with key {key}");
        Ok(())
    }

    fn replay(&self, tenant_id: &str, user_id: &str, event_id: &str) -> Result<(), String> {
        let slot = scoped(tenant_id, user_id, "order_sync", &format!("replay:{event_id}")).map_err(|e| e.to_string())?;
        if self.stash.exists(slot.storage_key()).map_err(|e| e.to_string())? {
            println!("event {event_id} was already replayed");
            return Ok(());
        }
        let payload = crate::orders::load_event(tenant_id, event_id).map_err(|e| e.to_string())?;
        let ack = resend_to_partner(tenant_id, &payload).map_err(|e| e.to_string())?;
        self.stash.put(slot.storage_key(), &ack).map_err(|e| e.to_string())?;
        println!("replayed {event_id}");
        Ok(())
    }
}

pub fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let url = env::var("STASH_URL").unwrap_or_else(|_| "stash://127.0.0.1:7400".to_owned());
    let Ok(stash) = BlockingStash::connect(&url) else {
        eprintln!("cannot reach stash at {url}");
        return ExitCode::from(2);
    };
    let console = Console { stash };
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["resend", path] => console.resend(path),
        ["replay", tenant_id, user_id, event_id] => console.replay(tenant_id, user_id, event_id),
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
