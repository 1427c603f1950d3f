//! Bulk import of matched donations sent by employers' giving platforms.
//! Each line is booked once, even if the platform re-sends the file.
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::time::Duration;

use idem_scope::{scoped, ScopeError, ScopedKey};
use loft::batten::Batten;
use proscenium::draw::JsonPart;
use proscenium::pass::Staff;
use proscenium::{Curtain, Flub, House};
use serde::Deserialize;

const KEEP: Duration = Duration::from_secs(90 * 86_400);
const PARTITIONS: u64 = 16;

#[derive(Deserialize, Hash)]
pub struct MatchLine {
    pub donor_ref: String,
    pub amount_minor: i64,
    pub employer_ref: String,
}

pub struct MatchImport {
    pub dedup_battens: Vec<Batten>,
    pub giving: crate::giving::Employers,
}

fn line_key(org_id: &str, user_id: &str, line: &MatchLine) -> Result<ScopedKey, ScopeError> {
    let h = BuildHasherDefault::<DefaultHasher>::default().hash_one(line);
    scoped(org_id, user_id, "match_import", &h.to_string())
}

pub async fn import_matches(staff: Staff, JsonPart(lines): JsonPart<Vec<MatchLine>>, house: House<MatchImport>) -> Result<Curtain, Flub> {
    let partition = BuildHasherDefault::<DefaultHasher>::default().hash_one(&staff.org_id) % PARTITIONS;
    let batten = &house.dedup_battens[partition as usize];
    let mut booked = 0usize;
    for line in &lines {
        let sk = line_key(&staff.org_id, &staff.user_id, line).map_err(Flub::bad_request)?;
        if batten.exists(sk.storage_key()).await? {
            continue;
        }
        house.giving.book_match(&staff.org_id, &line.donor_ref, line.amount_minor, &line.employer_ref).await?;
        batten.put(sk.storage_key(), b"booked".to_vec(), KEEP).await?;
        booked += 1;
    }
    Ok(Curtain::json(200, &serde_json::json!({ "booked": booked, "lines": lines.len() })))
}
