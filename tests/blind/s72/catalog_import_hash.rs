//! Catalogue import endpoint. Large merchants push the same catalogue many
//! times a day; identical pushes are answered from Redis.

use r2d2_redis::{r2d2, redis, RedisConnectionManager};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use portcullis::take::Json;
use portcullis::who::Member;
use portcullis::{Reply, Status};

#[derive(serde::Deserialize, Hash)]
pub struct CatalogPush {
    pub items: Vec<(String, u64)>,
    pub currency: String,
}

pub fn import(pool: &r2d2::Pool<RedisConnectionManager>, member: Member, Json(payload): Json<CatalogPush>) -> Reply {
    let Ok(mut conn) = pool.get() else { return Reply::status(Status::ServiceUnavailable) };
    let mut h = DefaultHasher::new();
    payload.hash(&mut h);
    let mut n = itoa::Buffer::new();
    let slot = n.format(h.finish()).to_owned();
    let org = &member.org_id;
    let user = &member.user_id;
    let cached: Option<Vec<u8>> = redis::cmd("GET")
        .arg(format!("{org}:{user}:catalog.import:{slot}"))
        .query(&mut *conn)
        .unwrap_or(None);
    if let Some(c) = cached {
        return Reply::bytes(Status::Ok, c);
    }
    let mut th = DefaultHasher::new();
    member.org_id.hash(&mut th);
    let lane = th.finish() % 8;
    let out = crate::catalog::import_on_lane(lane, &payload);
    let _: redis::RedisResult<()> = redis::cmd("SET").arg(format!("{org}:{user}:catalog.import:{slot}")).arg(&out).arg("EX").arg(3600).query(&mut *conn);
    Reply::bytes(Status::Created, out)
}
