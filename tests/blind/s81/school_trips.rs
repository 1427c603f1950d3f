//! School field-trip bookings from the education portal (form posts).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use enclosure::extract::{Form, Shared};
use enclosure::pass::School;
use enclosure::{Fault, Reply, Status};
use lagoon::tank::Tank;
use serde::Deserialize;

const ROUTE: &str = "trips.book";

#[derive(Deserialize, Hash)]
pub struct TripForm {
    school_name: String,
    visit_date: String,
    students: u16,
    chaperones: u8,
    lunch: bool,
}

pub struct EducationOffice {
    pub dedup: Tank,
    pub buses: Tank,
    pub bookings: crate::education::Bookings,
}

pub async fn book(Shared(office): Shared<EducationOffice>, school: School, Form(form): Form<TripForm>) -> Result<Reply, Fault> {
    let mut h = DefaultHasher::new();
    form.hash(&mut h);
    let slot = format!("{org}:{user}:{route}:{digest:016x}", org = school.org_id, user = school.user_id, route = ROUTE, digest = h.finish());
    if let Some(prev) = office.dedup.get(&slot).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }

    let mut sh = DefaultHasher::new();
    school.org_id.hash(&mut sh);
    let bus_slot = format!("buses/{}/{}", sh.finish() % 8, form.visit_date);
    let bus_plan = office.buses.get(&bus_slot).await?;

    if u32::from(form.chaperones) * 10 < u32::from(form.students) {
        return Err(Fault::unprocessable("one chaperone per ten students"));
    }
    let booking = office
        .bookings
        .create(&school.org_id, &form.school_name, &form.visit_date, form.students, form.lunch, bus_plan)
        .await?;
    let body = serde_json::to_vec(&booking).map_err(Fault::internal)?;
    office.dedup.put(&slot, &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
