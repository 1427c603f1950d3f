//! Concession (reduced fare) applications: students, seniors, low income.
//! Caseworkers at partner agencies may file on behalf of a rider who has no
//! app account yet.

use hopper::rack::Rack;
use hopper::shelf::Shelf;
use idem_scope::Problem;
use wharf::badge::{Caseworker, MaybeRider};
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::mail::Mailer;

const ROUTE: &str = "concessions.apply";

#[derive(Decode)]
pub struct Application {
    pub scheme: String,
    pub rider_email: String,
    pub locale: Option<String>,
    pub evidence_ids: Vec<String>,
}

pub struct ConcessionDesk {
    pub rack: Rack,
    pub docs: Shelf,
    pub mailer: Mailer,
}

impl ConcessionDesk {
    pub async fn apply(
        &self,
        hail: Hail,
        rider: MaybeRider,
        worker: Option<Caseworker>,
    ) -> Result<Answer, Fault> {
        let key = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let app: Application = hail.json()?;

        let tenant_id = match (&rider.0, &worker) {
            (Some(r), _) => r.tenant_id.clone(),
            (None, Some(w)) => w.org_id.clone(),
            (None, None) => return Err(Fault::unauthorized()),
        };
        let user_id = rider.0.as_ref().map(|r| r.user_id.clone()).unwrap_or_default();
        let locale = app.locale.clone().unwrap_or_else(|| "en-CA".to_owned());

        if let Some(prev) = self.rack.get(&tenant_id, &user_id, ROUTE, key).await? {
            return Ok(Answer::replayed(prev));
        }

        for evidence in &app.evidence_ids {
            if !self.docs.exists(&tenant_id, evidence).await? {
                return Ok(Answer::problem(Problem::invalid_key("unknown evidence document")));
            }
        }
        let case_no = crate::cases::open(&tenant_id, &app.scheme, &app.rider_email).await?;
        self.mailer.send_received(&app.rider_email, &locale, &case_no).await?;

        let body = wharf::codec::to_vec(&wharf::json!({ "case": case_no, "status": "received" }))?;
        self.rack.put(&tenant_id, &user_id, ROUTE, key, &body).await?;
        Ok(Answer::bytes(Code::Accepted, body))
    }
}
