//! Schools matinees: teachers book blocks of seats for a class.
use std::time::Duration;

use idem_scope::Fingerprint;
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Staff;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use smartstring::alias::String as SmartString;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(5 * 86_400);

#[derive(Deserialize)]
pub struct MatineeBooking {
    pub performance_id: String,
    pub pupils: u16,
    pub teachers: u8,
    pub school_name: String,
}

pub struct Education {
    pub batten: Batten,
    pub blocks: crate::groups::BlockBooker,
    pub letters: crate::mail::Letters,
}

pub async fn book_matinee(cue: Cue, teacher: Staff, JsonPart(req): JsonPart<MatineeBooking>, edu: House<Education>) -> Result<Curtain, Flub> {
    let Some(key) = cue.header("Idempotency-Key") else {
        return Ok(Curtain::new(400).text("Idempotency-Key is required"));
    };
    let mut slot = SmartString::new();
    slot.push_str(&teacher.org_id);
    slot.push('\u{1f}');
    slot.push_str(&teacher.user_id);
    slot.push('\u{1f}');
    slot.push_str("book_matinee");
    slot.push('\u{1f}');
    slot.push_str(key);
    let fp = Fingerprint::of("book_matinee", cue.body());
    match edu.batten.begin(&slot, &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let block = edu.blocks.book_schools(&teacher.org_id, &req.performance_id, req.pupils, req.teachers).await?;
            let mut letter = String::with_capacity(256);
            letter.push_str("Dear ");
            letter.push_str(&req.school_name);
            letter.push_str(", your booking reference is ");
            letter.push_str(key);
            edu.letters.send(&teacher.user_id, &letter).await?;
            let body = serde_json::to_vec(&block).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}
