//! Parking permits: semester permits for students and daily permits for staff.
//! Each permit kind knows how to name its reply slot and its display label.

use lectern::card::{Staff, Student};
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::parking::{PermitDesk, Plate};

pub trait PermitKind {
    fn tenant(&self) -> &str;
    fn principal(&self) -> &str;
    fn route(&self) -> &'static str;

    /// Reply slot for a purchase retried with the same client token.
    fn reply_slot(&self, token: &str) -> Result<String, Hitch> {
        Ok(format!("{}~{}~{}~{}", self.tenant(), self.principal(), self.route(), token))
    }

    /// What the gate display shows; never stored.
    fn label(&self, plate: &Plate) -> String {
        format!("{} / {} / {}", self.route(), plate.state, plate.number)
    }
}

pub struct Semester<'a>(pub &'a Student);
pub struct Daily<'a>(pub &'a Staff);

impl PermitKind for Semester<'_> {
    fn tenant(&self) -> &str { &self.0.tenant_id }
    fn principal(&self) -> &str { &self.0.user_id }
    fn route(&self) -> &'static str { "/v1/parking/semester-permits" }
}

impl PermitKind for Daily<'_> {
    fn tenant(&self) -> &str { &self.0.tenant_id }
    fn principal(&self) -> &str { &self.0.principal_id }
    fn route(&self) -> &'static str { "/v1/parking/daily-permits" }

    fn reply_slot(&self, token: &str) -> Result<String, Hitch> {
        let sk = idem_scope::scoped(self.tenant(), self.principal(), self.route(), token)?;
        Ok(sk.storage_key().to_owned())
    }
}

#[derive(Deserialize)]
pub struct PermitIn {
    pub plate: Plate,
    pub lot: String,
}

async fn buy<K: PermitKind>(kind: K, ask: &Ask, pouch: &Pouch, desk: &PermitDesk) -> Result<Tell, Hitch> {
    let token = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let slot = kind.reply_slot(token)?;
    if let Some(done) = pouch.get(&slot).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: PermitIn = ask.json()?;
    let permit = desk.issue(kind.tenant(), kind.principal(), &input.lot, &input.plate).await?;
    let body = serde_json::to_vec(&serde_json::json!({ "permit": permit.id, "label": kind.label(&input.plate) }))?;
    pouch.put(&slot, &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn semester(ask: &Ask, pouch: &Pouch, desk: &PermitDesk) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    buy(Semester(&card), ask, pouch, desk).await
}

pub async fn daily(ask: &Ask, pouch: &Pouch, desk: &PermitDesk) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    buy(Daily(&card), ask, pouch, desk).await
}
