//! Batch endpoint for lobby kiosks. The fleet manager forwards each kiosk's
//! commands in one JSON array; every command carries the key the kiosk minted
//! under the same name as the HTTP header.
use std::time::Duration;

use idem_scope::Fingerprint;
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Terminal;
use proscenium::{Curtain, Flub, House};
use serde::{Deserialize, Serialize};

const LEASE: Duration = Duration::from_secs(20);
const KEEP: Duration = Duration::from_secs(24 * 3600);

#[derive(Deserialize)]
pub struct KioskCommand {
    #[serde(rename = "Idempotency-Key")]
    pub token: String,
    pub kiosk_id: String,
    pub action: String,
    pub payload: serde_json::Value,
}

#[derive(Serialize)]
pub struct CommandResult {
    pub kiosk_id: String,
    pub status: u16,
    pub body: serde_json::Value,
}

pub struct Lobby {
    pub batten: Batten,
    pub kiosks: crate::kiosk::Fleet,
}

pub async fn kiosk_batch(term: Terminal, JsonPart(batch): JsonPart<Vec<KioskCommand>>, lobby: House<Lobby>) -> Result<Curtain, Flub> {
    let mut results = Vec::with_capacity(batch.len());
    for cmd in &batch {
        let raw = serde_json::to_vec(&cmd.payload).map_err(Flub::internal)?;
        let fp = Fingerprint::of(&cmd.action, &raw);
        tracing::debug!(kiosk = %cmd.kiosk_id, token = %cmd.token, "kiosk command");
        let result = match lobby.batten.begin(&cmd.token, &fp, LEASE).await? {
            Begun::Taken(previous) => CommandResult {
                kiosk_id: cmd.kiosk_id.clone(),
                status: 200,
                body: previous.map(|b| serde_json::from_slice(&b).unwrap_or_default()).unwrap_or_default(),
            },
            Begun::Fresh(held) => {
                let body = lobby.kiosks.run(&term.org_id, &cmd.kiosk_id, &cmd.action, &cmd.payload).await?;
                held.complete(serde_json::to_vec(&body).map_err(Flub::internal)?, KEEP).await?;
                CommandResult { kiosk_id: cmd.kiosk_id.clone(), status: 201, body }
            }
        };
        results.push(result);
    }
    Ok(Curtain::json(200, &results))
}
