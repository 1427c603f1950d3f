//! Graduate-school thesis submissions. The submission form is a classic HTML
//! form post (no JavaScript, so no Idempotency-Key); double clicks on
//! "Submit" are folded by hashing the form into the reply slot.

#![allow(deprecated)]

use std::hash::{Hash, Hasher, SipHasher};

use lectern::card::Student;
use lectern::pluck::Form;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::locker::Locker;
use satchel::pouch::Pouch;
use serde::Deserialize;

const SIP_K0: u64 = 0x5eed_1234_abcd_0001;
const SIP_K1: u64 = 0x5eed_1234_abcd_0002;

#[derive(Deserialize, Hash)]
pub struct ThesisForm {
    pub title: String,
    pub committee_chair: String,
    pub embargo_months: u8,
    pub abstract_text: String,
}

pub struct GradSchool {
    pub submit_dedup: Pouch,
    pub vault: Locker,
}

pub async fn submit(ask: &Ask, Form(form): Form<ThesisForm>, school: &GradSchool) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let route = "/v1/grad/theses";
    let mut sip = SipHasher::new_with_keys(SIP_K0, SIP_K1);
    form.hash(&mut sip);
    let form_sum = sip.finish();

    let slot = format!("{}/{}/{}/{}", card.tenant_id, card.user_id, route, form_sum.to_string());
    if let Some(done) = school.submit_dedup.get(&slot).await? {
        return Ok(Tell::bytes(Mark::SEE_OTHER, done));
    }

    let receipt = crate::grad::register_thesis(&card.tenant_id, &card.user_id, &form.title, form.embargo_months).await?;
    let body = serde_json::to_vec(&receipt)?;
    school.submit_dedup.put(&slot, &body).await?;
    Ok(Tell::bytes(Mark::SEE_OTHER, body))
}

/// The PDF itself is stored content-addressed in the thesis vault.
pub async fn upload_pdf(ask: &Ask, school: &GradSchool) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let pdf = ask.content();
    let mut sip = SipHasher::new_with_keys(SIP_K0, SIP_K1);
    pdf.hash(&mut sip);
    let object = format!("{}/theses/{:016x}.pdf", card.tenant_id, sip.finish());
    school.vault.put(&object, pdf).await?;
    Ok(Tell::json(Mark::CREATED, &serde_json::json!({ "object": object })))
}
