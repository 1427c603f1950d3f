//! Catering orders from departments (coffee for the senate meeting, lunch for
//! the orientation leaders). The catering form is resubmitted by browsers on
//! "back"; a streamed digest of the order stands in for a retry key.

use lectern::card::Staff;
use lectern::pluck::Json;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::{Pouch, Slot};
use serde::Deserialize;
use sha2::{Digest, Sha224};

use crate::catering::Kitchen;

#[derive(Deserialize)]
pub struct CateringOrder {
    pub event_date: String,
    pub venue: String,
    pub headcount: u32,
    pub menu: Vec<String>,
    pub cost_centre: String,
}

pub struct Catering {
    pub idem: Pouch,
    pub kitchen: Kitchen,
}

pub async fn order(ask: &Ask, Json(order): Json<CateringOrder>, cat: &Catering) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let mut h = Sha224::new();
    h.update(order.event_date.as_bytes());
    h.update(order.venue.as_bytes());
    h.update(order.headcount.to_be_bytes());
    for item in &order.menu {
        h.update(item.as_bytes());
    }
    let digest = h.finalize();
    let hexed: String = digest.iter().map(|b| format!("{b:02x}")).collect();

    match cat.idem.entry(&card.tenant_id, &card.principal_id, "/v1/catering/orders", &hexed).await? {
        Slot::Filled(body) => Ok(Tell::bytes(Mark::OK, body)),
        Slot::Vacant(vacant) => {
            let ticket = cat.kitchen.book(&card.tenant_id, &order.cost_centre, &order.venue, order.headcount).await?;
            let body = serde_json::to_vec(&ticket)?;
            vacant.fill(&body).await?;
            Ok(Tell::bytes(Mark::CREATED, body))
        }
    }
}

/// Menus are cached per venue; the cache key is the venue name as entered.
pub async fn menu(ask: &Ask, cat: &Catering) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let venue = ask.param("venue").ok_or(Hitch::bad_request("venue"))?;
    let mut h = Sha224::new();
    h.update(venue.to_lowercase().as_bytes());
    let venue_tag: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let menu = cat.kitchen.menu_for(&card.tenant_id, &venue_tag).await?;
    Ok(Tell::json(Mark::OK, &menu))
}
