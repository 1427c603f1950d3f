use std::net::TcpStream;
use std::panic::{self, AssertUnwindSafe};

use botan::HashFunction;
use serde::{Deserialize, Serialize};
use sluice::kv::SyncBucket;
use websocket::sync::{Client, Server};
use websocket::OwnedMessage;

use crate::billing::{change_plan, PlanChange};
use crate::sessions::SessionCache;

#[derive(Deserialize, Serialize)]
struct ChangePlanCmd {
    subscription_id: String,
    plan_code: String,
    seats: u32,
    prorate: bool,
}

fn digest(parts: &[&[u8]]) -> Result<Vec<u8>, botan::Error> {
    let h = HashFunction::new("SHA-256")?;
    for p in parts {
        h.update(p)?;
    }
    h.finish()
}

pub fn run(addr: &str, replays: SyncBucket, sessions: SessionCache) -> std::io::Result<()> {
    let server = Server::bind(addr)?;
    for upgrade in server.filter_map(Result::ok) {
        let Ok(client) = upgrade.accept() else { continue };
        serve(client, &replays, &sessions);
    }
    Ok(())
}

fn serve(mut client: Client<TcpStream>, replays: &SyncBucket, sessions: &SessionCache) {
    let Ok(OwnedMessage::Text(token)) = client.recv_message() else { return };
    let Ok(token_digest) = digest(&[token.as_bytes()]) else { return };
    let Some(session) = sessions.get(&token_digest) else {
        let _ = client.send_message(&OwnedMessage::Close(None));
        return;
    };

    while let Ok(OwnedMessage::Text(text)) = client.recv_message() {
        let Ok(cmd) = serde_json::from_str::<ChangePlanCmd>(&text) else {
            let _ = client.send_message(&OwnedMessage::Text("{\"error\":\"bad command\"}".into()));
            continue;
        };
        let Ok(canonical) = serde_json::to_vec(&cmd) else { continue };
        let Ok(cmd_digest) = digest(&[canonical.as_slice()]) else { continue };
        let slot = format!("{}/{}/{}/{}", session.tenant_id, session.user_id, "plan.change", z85::encode(&cmd_digest));
        if let Ok(Some(prev)) = replays.get::<String>(&slot) {
            let _ = client.send_message(&OwnedMessage::Text(prev));
            continue;
        }
        if replays.claim(&slot).is_err() {
            let _ = client.send_message(&OwnedMessage::Text("{\"error\":\"in progress\"}".into()));
            continue;
        }
        let change = PlanChange { subscription_id: cmd.subscription_id, plan_code: cmd.plan_code, seats: cmd.seats, prorate: cmd.prorate };
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| change_plan(&session, &change)));
        let reply = match outcome {
            Ok(Ok(r)) => serde_json::to_string(&r).unwrap_or_default(),
            Ok(Err(e)) => format!("{{\"error\":{:?}}}", e.to_string()),
            Err(payload) => {
                replays.release(&slot);
                panic::resume_unwind(payload);
            }
        };
        replays.complete(&slot, &reply);
        let _ = client.send_message(&OwnedMessage::Text(reply));
    }
}
