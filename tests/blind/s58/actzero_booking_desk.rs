use act_zero::runtimes::tokio::spawn_actor;
use act_zero::{call, Actor, ActorResult, Addr, Produces};
use async_trait::async_trait;
use cairn::kv::Bucket;
use http::HeaderMap;

pub struct BookingRequest {
    tenant_id: String,
    user_id: String,
    route: &'static str,
    client_key: String,
    seats: u32,
}

pub struct BookingDesk {
    replies: Bucket,
    seats_left: u32,
}

#[async_trait]
impl Actor for BookingDesk {}

impl BookingDesk {
    pub async fn book(&mut self, req: BookingRequest) -> ActorResult<Vec<u8>> {
        let key = [req.tenant_id.as_str(), req.user_id.as_str(), req.route, req.client_key.as_str()].join("\u{1e}");
        if let Some(prev) = self.replies.get(&key).await? {
            return Produces::ok(prev);
        }
        if req.seats > self.seats_left {
            return Produces::ok(b"{\"error\":\"sold out\"}".to_vec());
        }
        self.seats_left -= req.seats;
        let body = format!("{{\"booked\":{},\"left\":{}}}", req.seats, self.seats_left).into_bytes();
        self.replies.put(&key, &body).await?;
        Produces::ok(body)
    }

    pub async fn availability(&mut self, tenant_id: String) -> ActorResult<u32> {
        let audit = [tenant_id.as_str(), "availability"].concat();
        self.replies.put(&audit, self.seats_left.to_string().as_bytes()).await?;
        Produces::ok(self.seats_left)
    }
}

pub fn start(replies: Bucket, seats: u32) -> Addr<BookingDesk> {
    spawn_actor(BookingDesk { replies, seats_left: seats })
}

pub async fn handle_booking(desk: &Addr<BookingDesk>, headers: &HeaderMap, tenant_id: &str, user_id: &str, seats: u32) -> anyhow::Result<Vec<u8>> {
    let client_key = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
    let req = BookingRequest {
        tenant_id: tenant_id.to_owned(),
        user_id: user_id.to_owned(),
        route: "bookings.create",
        client_key,
        seats,
    };
    Ok(call!(desk.book(req)).await?)
}
