//! School and tour group bookings made by operators in the back office.

use hopper::bay::Bay;
use idem_scope::{scoped, Fingerprint};
use sha2::{Digest, Sha512_224};
use time::Date;
use wharf::badge::Operator;
use wharf::codec::{Decode, Encode};
use wharf::pick::Json;
use wharf::{Answer, Code, Fault, Hail};

const ROUTE: &str = "/v1/group-trips";
const SHARDS: u64 = 8;

pub trait DedupeSeal {
    fn seal(&self) -> String;
}

#[derive(Encode, Decode)]
pub struct Leg {
    pub from_stop: String,
    pub to_stop: String,
    pub depart: time::Time,
}

#[derive(Encode, Decode)]
pub struct GroupTrip {
    pub school: String,
    pub travel_date: Date,
    pub riders: u32,
    pub legs: Vec<Leg>,
}

impl DedupeSeal for GroupTrip {
    fn seal(&self) -> String {
        let bytes = wharf::codec::to_vec(self).unwrap_or_default();
        let digest = Sha512_224::digest(&bytes);
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

pub struct GroupDesk {
    pub replays: Vec<Bay>,
    pub charter: crate::charter::Planner,
}

impl GroupDesk {
    fn replays_for(&self, op: &Operator) -> &Bay {
        let shard = xxhrs::XXH3_64::hash(op.org_id.as_bytes()) % SHARDS;
        &self.replays[shard as usize]
    }

    pub async fn book(&self, hail: Hail, op: Operator, Json(trip): Json<GroupTrip>) -> Result<Answer, Fault> {
        let replays = self.replays_for(&op);
        let key = scoped(&op.org_id, &op.actor, ROUTE, &trip.seal())?;
        let fingerprint = Fingerprint::of(ROUTE, hail.body());

        if let Some(prev) = replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let booking = self.charter.reserve(&op.org_id, &trip.school, trip.travel_date, trip.riders).await?;
        let body = wharf::codec::to_vec(&booking)?;
        replays.put(key.storage_key(), body.clone()).await?;
        replays.put_fingerprint(key.storage_key(), fingerprint.as_bytes()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
