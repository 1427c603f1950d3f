//! Car-park passes sold with tickets. The key arrives in the request head and
//! is parsed once by the `IdemTicket` extractor.
use std::time::{Duration, Instant};

use idem_scope::{Fingerprint, IdempotencyKey, Problem};
use loft::batten::{Begun, Batten};
use proscenium::draw::{Draw, JsonPart};
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const IDEM_HEADER: &str = "Idempotency-Key";
const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(24 * 3600);

/// Idempotency ticket drawn from the request head.
pub struct IdemTicket {
    pub raw: String,
    pub received_at: Instant,
}

impl Draw for IdemTicket {
    async fn draw(cue: &mut Cue) -> Result<Self, Flub> {
        let value = cue
            .header_raw(IDEM_HEADER)
            .ok_or_else(|| Flub::from(Problem::missing_key()))?;
        let parsed = IdempotencyKey::parse_lenient(value)
            .map_err(|e| Flub::from(Problem::invalid_key(&e.to_string())))?;
        if parsed.as_str().contains(['\0', '\u{1e}']) {
            return Err(Flub::from(Problem::invalid_key("control characters are not allowed")));
        }
        Ok(IdemTicket { raw: parsed.as_str().to_owned(), received_at: Instant::now() })
    }
}

#[derive(Deserialize)]
pub struct ParkingRequest {
    pub performance_id: String,
    pub plate: String,
}

pub struct Lot {
    pub batten: Batten,
    pub barrier: crate::parking::Barrier,
}

pub async fn buy_parking(cue: Cue, ticket: IdemTicket, patron: Patron, JsonPart(req): JsonPart<ParkingRequest>, lot: House<Lot>) -> Result<Curtain, Flub> {
    let fp = Fingerprint::of("buy_parking", cue.body());
    match lot.batten.begin(&ticket.raw, &fp, LEASE).await? {
        Begun::Taken(None) => Ok(Curtain::problem(Problem::in_progress(&ticket.raw))),
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let pass = lot.barrier.issue(&patron.org_id, &req.performance_id, &req.plate).await?;
            let body = serde_json::to_vec(&pass).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            tracing::debug!(waited_ms = ticket.received_at.elapsed().as_millis() as u64, "parking pass issued");
            Ok(Curtain::bytes(201, body))
        }
    }
}
