use gimbal::{Ctx, RawBody, Reply};
use idem_scope::{scoped, Problem};
use pyxis::kv::Shelf;
use serde::Deserialize;
use tracing::warn;

use crate::analytics::{Event, Sink};

#[derive(Deserialize)]
struct Envelope {
    events: Vec<Event>,
}

pub struct Ingest {
    dedup: Shelf,
    sink: Sink,
}

fn problem(e: impl std::fmt::Display) -> Reply {
    Reply::problem(Problem::invalid_key(&e.to_string()))
}

impl Ingest {
    pub async fn ingest(&self, ctx: Ctx, RawBody(body): RawBody) -> Reply {
        let auth = ctx.auth();
        let key = match scoped(&auth.tenant_id, &auth.user_id, "events.ingest", &ctx.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| format!("{:016x}", murmurhash3::murmurhash3_x64_128(&body, 0).0))) {
            Ok(key) => key,
            Err(e) => return problem(e),
        };

        match self.dedup.get(key.storage_key()).await {
            Ok(Some(_)) => return Reply::status(202),
            Ok(None) => {}
            Err(e) => {
                warn!(error = %e, "dedup lookup failed; accepting batch");
            }
        }

        let envelope: Envelope = match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(e) => return Reply::status(400).with_text(e.to_string()),
        };
        let accepted = envelope.events.len();
        if let Err(e) = self.sink.write_batch(&auth.tenant_id, envelope.events).await {
            warn!(error = %e, accepted, "sink rejected batch");
            return Reply::status(503);
        }
        let _ = self.dedup.put(key.storage_key(), accepted.to_string().as_bytes()).await;
        Reply::status(202)
    }
}
