//! POST /v2/reservations on the lantern stack.
use coffer::drawer::Drawer;
use idem_scope::{Fingerprint, Problem};
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};
use tracing::info;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

pub struct ReservationDesk {
    pub replays: Drawer,
    pub pms: crate::pms::Client,
}

impl ReservationDesk {
    pub async fn create(&self, visit: Visit) -> Verdict {
        let Some(member) = visit.extension::<Member>() else {
            return Verdict::status(Status::Unauthorized);
        };
        let Some(k) = visit.header(IDEMPOTENCY_HEADER).map(str::to_owned) else {
            return Verdict::problem(Problem::missing_key());
        };
        info!(idempotency_key = %k, tenant = %member.tenant_id, "reservation create");
        let t = &member.tenant_id;
        let u = &member.user_id;
        let slot = format!("{t}/{u}/reservation.create/{k}");
        let raw = match visit.body_bytes().await {
            Ok(b) => b,
            Err(_) => return Verdict::status(Status::BadRequest),
        };
        let fp = Fingerprint::of("reservation.create", &raw);
        if let Ok(Some(prior)) = self.replays.get(&slot).await {
            if prior.fingerprint != fp {
                let detail = format!("Idempotency-Key {k} was used with another payload");
                return Verdict::problem(Problem::mismatch(&k)).with_detail(detail);
            }
            return Verdict::replay(prior.body);
        }
        let created = match self.pms.reserve(&raw).await {
            Ok(c) => c,
            Err(e) => return Verdict::upstream(e),
        };
        let _ = self.replays.put(&slot, &created.to_bytes()).await;
        Verdict::json(Status::Created, &created)
    }
}
