use std::time::Duration;

use idem_scope::{scoped, Problem, ScopeError};
use moraine::auth::MaybeCaller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct SellerApplication {
    pub legal_name: String,
    pub iban: String,
    pub shop_handle: String,
}

pub struct Sellers {
    pub locker: Locker,
    pub kyb: crate::kyb::KybApi,
}

impl Sellers {
    pub async fn apply(&self, caller: MaybeCaller, head: Head, Json(app): Json<SellerApplication>) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let team_id: String = caller.as_ref().and_then(|c| c.team_id.clone()).unwrap_or(Default::default());
        let Some(actor) = caller.as_ref().map(|c| c.user_id.trim_start_matches('#').to_owned()) else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let iban = app.iban.replace(' ', "").to_uppercase();
        let handle = app.shop_handle.trim().to_lowercase();

        let sk = match scoped(&team_id, &actor, "seller_apply", key) {
            Ok(sk) => sk,
            Err(ScopeError::ContainsSeparator(c)) => {
                return Reply::problem(Problem::invalid_key(&format!("{c:?} contains a separator")));
            }
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let app_id = match self.kyb.submit(&team_id, &app.legal_name, &iban, &handle).await {
            Ok(id) => id,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let _ = self.locker.put(sk.storage_key(), app_id.as_bytes(), Duration::from_secs(86_400)).await;
        Reply::text(Status::CREATED, app_id)
    }
}
