//! Amenity bookings (tennis courts, cabanas) with a key sketch builder.
use coffer::drawer::Drawer;
use idem_scope::{scoped, ScopeError, ScopedKey};
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

#[derive(Default)]
pub struct KeySketch {
    tenant: String,
    principal: String,
    route: String,
    key: String,
}

impl KeySketch {
    pub fn tenant(mut self, t: &str) -> Self {
        self.tenant = t.to_owned();
        self
    }
    pub fn principal(mut self, p: &str) -> Self {
        self.principal = p.replace('|', "-");
        self
    }
    pub fn route(mut self, r: &str) -> Self {
        self.route = r.to_owned();
        self
    }
    pub fn key(mut self, k: &str) -> Self {
        self.key = k.to_owned();
        self
    }
    pub fn build(self) -> Result<ScopedKey, ScopeError> {
        scoped(&self.tenant, &self.principal, &self.route, &self.key)
    }
}

pub async fn book(visit: Visit, member: Member, replays: &Drawer) -> Verdict {
    let Some(k) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let Ok(sk) = KeySketch::default().tenant(&member.tenant_id).principal(&member.user_id).route("amenity.book").key(k).build() else {
        return Verdict::status(Status::BadRequest);
    };
    let court = visit.query("court").unwrap_or("1").replace('|', "");
    if let Ok(Some(done)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let slot = crate::amenities::book(&member, &court).await;
    let _ = replays.put(sk.storage_key(), slot.as_bytes()).await;
    Verdict::ok(slot)
}
