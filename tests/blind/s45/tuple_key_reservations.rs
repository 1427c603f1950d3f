use std::collections::HashMap;

use parking_lot::Mutex;
use tiny_http::Request;

pub struct TableReservations {
    by_key: Mutex<HashMap<(String, String), String>>,
    floor: FloorPlan,
}

fn h(req: &Request, name: &str) -> Option<String> {
    req.headers().iter().find(|x| x.field.equiv(name)).map(|x| x.value.to_string())
}

impl TableReservations {
    pub fn hold_table(&self, req: &Request, venue: &VenueSession) -> Result<String, ResError> {
        let booking_token = h(req, "Idempotency-Key").ok_or(ResError::MissingKey)?;
        let slot = (venue.account_id.clone(), booking_token);
        let mut by_key = self.by_key.lock();
        if let Some(id) = by_key.get(&slot) {
            return Ok(id.clone());
        }
        let id = self.floor.hold(&venue.account_id, venue.party_size)?;
        by_key.insert(slot, id.clone());
        Ok(id)
    }

    pub fn table_label(&self, venue: &VenueSession, table_no: u32) -> String {
        format!("{}#{}", venue.account_id, table_no)
    }
}
