//! Advisor bulk enrollment: an advisor enrolls a cohort into sections in one
//! request. The whole batch is retried by the advising app on a timeout.

use std::hash::{DefaultHasher, Hash, Hasher};

use idem_scope::{scoped, Fingerprint};
use lectern::card::Staff;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::{Deserialize, Serialize};

use crate::sis::Enrollment;

#[derive(Deserialize, Hash)]
pub struct Item {
    pub student_id: String,
    pub section_id: String,
    pub credits: u8,
}

#[derive(Deserialize)]
pub struct Batch {
    pub term: String,
    pub items: Vec<Item>,
}

#[derive(Serialize)]
pub struct ItemResult {
    pub student_id: String,
    pub outcome: String,
}

pub struct Advising {
    pub item_replays: Pouch,
    pub batch_replays: Pouch,
    pub sis: Enrollment,
}

pub async fn enroll_cohort(ask: &Ask, adv: &Advising) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let route = "/v1/advising/bulk-enrollments";
    let batch: Batch = ask.json()?;

    let mut batch_slot = None;
    if let Some(key) = ask.head("Idempotency-Key") {
        let sk = scoped(&card.tenant_id, &card.principal_id, route, key)?;
        let fp = Fingerprint::of(route, ask.content());
        if let Some(rec) = adv.batch_replays.get_record(sk.storage_key()).await? {
            if rec.fingerprint == fp {
                return Ok(Tell::bytes(Mark::OK, rec.body));
            }
            return Ok(Tell::problem(idem_scope::Problem::mismatch(key)));
        }
        batch_slot = Some((sk, fp));
    }

    let mut results = Vec::with_capacity(batch.items.len());
    for item in &batch.items {
        let mut h = DefaultHasher::new();
        batch.term.hash(&mut h);
        item.hash(&mut h);
        let sk = scoped(&card.tenant_id, &card.principal_id, route, &h.finish().to_string())?;
        if let Some(prev) = adv.item_replays.get(sk.storage_key()).await? {
            results.push(ItemResult { student_id: item.student_id.clone(), outcome: String::from_utf8_lossy(&prev).into_owned() });
            continue;
        }
        let outcome = adv.sis.enroll(&card.tenant_id, &item.student_id, &item.section_id, item.credits).await?;
        adv.item_replays.put(sk.storage_key(), outcome.as_bytes()).await?;
        results.push(ItemResult { student_id: item.student_id.clone(), outcome });
    }
    let body = serde_json::to_vec(&results)?;
    if let Some((sk, fp)) = batch_slot {
        adv.batch_replays.put_record(sk.storage_key(), &fp, &body).await?;
    }
    Ok(Tell::bytes(Mark::OK, body))
}
