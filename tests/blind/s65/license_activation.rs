use std::sync::Arc;

use error_stack::{bail, Report, ResultExt};
use idem_scope::scoped;
use kestrel::extract::Head;
use tessera::dedup::DedupTable;

use crate::errors::ApiError;
use crate::licensing::{Activation, LicenseServer};

pub struct Activations {
    dedup: Arc<DedupTable>,
    licenses: Arc<LicenseServer>,
}

impl Activations {
    pub async fn activate(&self, head: &Head, seat_id: &str) -> Result<Activation, Report<ApiError>> {
        let who = head.identity().ok_or(ApiError::Unauthorized)?;
        let retry = head.header_str("Idempotency-Key").ok_or(ApiError::MissingKey)?;
        let key = scoped(&who.org_id, &who.user_id, "activate_seat", retry).change_context(ApiError::BadKey)?;

        let locked = self.dedup.try_lock(key.storage_key()).await.change_context(ApiError::Busy)?;
        if !locked {
            bail!(ApiError::InProgress);
        }
        let license = self
            .licenses
            .for_org(&who.org_id)
            .await
            .change_context(ApiError::Upstream)
            .attach_printable(format!("activation {retry} for seat {seat_id}"))?;
        if license.seats_used >= license.seats_total {
            bail!(ApiError::NoSeatsLeft);
        }
        let activation = self.licenses.activate(&license, seat_id).await.change_context(ApiError::Upstream)?;
        let bytes = kestrel::json::to_vec(&activation).change_context(ApiError::Internal)?;
        self.dedup.commit(key.storage_key(), &bytes).await.change_context(ApiError::Busy)?;
        Ok(activation)
    }

    pub async fn add_seats(&self, org_id: &str, seats: u32) -> Result<(), Report<ApiError>> {
        let hold = self.licenses.reserve(org_id, seats).await.change_context(ApiError::Upstream)?;
        let invoice = self.licenses.invoice(org_id, seats).await.change_context(ApiError::Upstream)?;
        self.licenses.commit(hold, &invoice).await.change_context(ApiError::Upstream)?;
        Ok(())
    }
}
