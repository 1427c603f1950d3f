//! Group sales: schools and tour operators upload a CSV of seat requests.
//! A re-upload of the same sheet must not book the block twice.
use std::time::Duration;

use idem_scope::scoped;
use loft::batten::Batten;
use loft::wings::Wings;
use proscenium::draw::RawPart;
use proscenium::pass::Staff;
use proscenium::{Curtain, Cue, Flub, House};
use sha2::{Digest, Sha384};

const KEEP: Duration = Duration::from_secs(7 * 86_400);

pub struct GroupDesk {
    pub replays: Batten,
    pub wings: Wings,
    pub blocks: crate::groups::BlockBooker,
}

struct Line {
    performance_id: String,
    seats: Vec<String>,
}

fn parse_sheet(csv: &[u8]) -> Result<Vec<Line>, Flub> {
    let text = std::str::from_utf8(csv).map_err(Flub::bad_request)?;
    let mut out = Vec::new();
    for row in text.lines().skip(1) {
        let normalised = row.replace('\t', ",");
        let mut cols = normalised.split(',');
        let performance_id = cols.next().unwrap_or_default().to_owned();
        let mut seats: Vec<String> = cols.map(|c| c.trim().to_owned()).collect();
        seats.retain(|s| !s.is_empty());
        out.push(Line { performance_id, seats });
    }
    Ok(out)
}

pub async fn import_group_sheet(cue: Cue, staff: Staff, RawPart(csv): RawPart, desk: House<GroupDesk>) -> Result<Curtain, Flub> {
    let lines = parse_sheet(&csv)?;
    let sheet_hash = format!("{:x}", Sha384::digest(&csv));
    let sk = scoped(&staff.org_id, &staff.user_id, "group_import", &sheet_hash).map_err(Flub::bad_request)?;
    if let Some(previous) = desk.replays.get(sk.storage_key()).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let mut booked = Vec::with_capacity(lines.len());
    for line in &lines {
        booked.push(desk.blocks.book(&staff.org_id, &line.performance_id, &line.seats).await?);
    }
    let body = serde_json::to_vec(&booked).map_err(Flub::internal)?;
    desk.replays.put(sk.storage_key(), body.clone(), KEEP).await?;
    let _ = cue;
    Ok(Curtain::bytes(201, body))
}

/// Copies a sheet that was already stored by the upload step into the archive,
/// under a content address so identical sheets share one object.
pub async fn archive_stored_sheet(desk: &GroupDesk, upload_path: &str) -> Result<String, Flub> {
    let stored = desk.wings.get_object(upload_path).await?;
    let content_id = format!("{:x}", Sha384::digest(&stored));
    let archive_path = format!("group-sheets/{content_id}.csv");
    desk.wings.put_object(&archive_path, stored).await?;
    Ok(archive_path)
}
