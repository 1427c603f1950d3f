//! Caption rush orders: producers order same-day captions from the
//! console; the vendor bills every order it receives.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use spool::cart::Cart;

#[derive(Deserialize, Serialize)]
pub struct RushOrder {
    pub program_id: String,
    pub minutes: u32,
    pub languages: Vec<String>,
    pub turnaround_hours: u16,
}

fn rush_key(p: &Producer, route: &str, q: &RushOrder) -> Result<impl AsRef<str>, Glitch> {
    let body = serde_json::to_vec(q).map_err(Glitch::internal)?;
    let digest = Sha256::new().chain_update(route.as_bytes()).chain_update(&body).finalize();
    scoped(&p.org_id, &p.user_id, route, &hex::encode(digest)).map(|k| k.storage_key().to_owned()).map_err(Glitch::scope)
}

pub async fn order_rush(inb: Inbound, idem: &Cart, sessions: &Cart) -> Result<Outbound, Glitch> {
    let bearer = inb.header("Authorization").and_then(|v| v.strip_prefix("Bearer ")).ok_or(Glitch::unauthorized())?;
    let token_hash = hex::encode(Sha256::digest(bearer.as_bytes()));
    let p: Producer = sessions.get_as(&token_hash).await?.ok_or(Glitch::unauthorized())?;

    let route = inb.route_template().to_owned();
    let req: RushOrder = inb.json().await?;
    let key = rush_key(&p, &route, &req)?;
    if let Some(prior) = idem.get(key.as_ref()).await? {
        return Ok(Outbound::replay(prior));
    }
    let order = crate::captions::rush_order(&p.org_id, &req.program_id, &req.languages, req.minutes, req.turnaround_hours).await?;
    idem.put(key.as_ref(), &serde_json::to_vec(&order).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &order))
}
