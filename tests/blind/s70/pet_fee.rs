//! Pet fees added to a stay by the guest before arrival.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::take::Head;
use lantern::{Status, Verdict};

pub struct PetFees {
    pub replays: Drawer,
}

impl PetFees {
    pub async fn add(&self, head: Head, claims: Option<crate::auth::GuestClaims>) -> Verdict {
        let Some(key) = head.header("Idempotency-Key") else {
            return Verdict::status(Status::BadRequest);
        };
        let Some(claims) = claims else {
            return Verdict::status(Status::Unauthorized);
        };
        let tenant: String = claims.org.clone().unwrap_or_else(|| "public".into());
        let sub = claims.sub.clone();
        let nights = claims.nights.unwrap_or_else(|| 1);
        let Ok(sk) = scoped(&tenant, &sub, "pet.fee", key) else {
            return Verdict::status(Status::BadRequest);
        };
        if let Ok(Some(done)) = self.replays.get(sk.storage_key()).await {
            return Verdict::replayed(done);
        }
        let fee = crate::fees::pet(&tenant, nights).await;
        let _ = self.replays.put(sk.storage_key(), fee.as_bytes()).await;
        Verdict::ok(fee)
    }
}
