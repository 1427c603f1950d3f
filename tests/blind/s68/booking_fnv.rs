use std::hash::{Hash, Hasher};

use cobble::vault::Vault;
use idem_scope::scoped;
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Reply, Status};

/// 64-bit FNV-1a, kept local so the value is stable across Rust releases.
struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv64 {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(Hash, serde::Deserialize)]
pub struct SeatBooking {
    pub show_id: String,
    pub seats: Vec<String>,
    pub holder_email: String,
}

pub async fn book_seats(caller: Caller, Json(booking): Json<SeatBooking>, vault: &Vault) -> Result<Reply, Reply> {
    let mut h = Fnv64::default();
    booking.hash(&mut h);
    let booking_tag = format!("{:016x}", h.finish());
    let sk = scoped(&caller.tenant_id, &caller.user_id, "seats.book", &booking_tag).map_err(|_| Reply::status(Status::BadRequest))?;
    if !vault.set_nx(sk.storage_key(), b"held").await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
        return Ok(Reply::status(Status::Conflict));
    }
    let mut shard = Fnv64::default();
    caller.tenant_id.hash(&mut shard);
    let partition = shard.finish() % 16;
    vault.put(&format!("seatmap:{partition}:{}", booking.show_id), booking.seats.join(",")).await.ok();
    Ok(Reply::status(Status::Created))
}
