use fred::prelude::*;
use fred::types::Expiration;
use trillium::{Conn, Status};

pub struct Limiter {
    pub redis: RedisClient,
    pub per_minute: i64,
}

impl Limiter {
    pub async fn check(&self, conn: Conn) -> Conn {
        let tenant = conn.request_headers().get_str("x-tenant-id").unwrap_or("public").to_owned();
        let route = conn.path().trim_end_matches('/').to_owned();
        let minute = chrono::Utc::now().timestamp() / 60;
        let bucket = format!("rl:{}:{}:{}", tenant, route, minute);
        let count: i64 = match self.redis.incr(&bucket).await {
            Ok(c) => c,
            Err(_) => return conn,
        };
        if count == 1 {
            let _: Result<(), _> = self.redis.expire(&bucket, 90).await;
        }
        if count > self.per_minute {
            return conn.with_status(Status::TooManyRequests).halt();
        }
        conn
    }

    pub async fn remember_banner(&self, conn: &Conn) -> Result<(), RedisError> {
        let region = conn.request_headers().get_str("x-region").unwrap_or("default");
        self.redis.set(format!("banner:{}", region), "shown", Some(Expiration::EX(600)), None, false).await
    }
}
