use bytes::BytesMut;
use gimbal::{Ctx, Reply};
use idem_scope::{scoped, Problem};
use redis_protocol::resp2::decode::decode_bytes_mut;
use redis_protocol::resp2::encode::extend_encode;
use redis_protocol::resp2::types::BytesFrame as Frame;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::calendar::{self, BookingRequest};
use crate::error::AppError;

pub struct Resp {
    stream: TcpStream,
    buf: BytesMut,
}

impl Resp {
    async fn call(&mut self, args: &[&[u8]]) -> Result<Frame, AppError> {
        let frame = Frame::Array(args.iter().map(|a| Frame::BulkString(a.to_vec().into())).collect());
        let mut out = BytesMut::new();
        extend_encode(&mut out, &frame, false)?;
        self.stream.write_all(&out).await?;
        loop {
            if let Some((frame, _, _)) = decode_bytes_mut(&mut self.buf)? {
                return Ok(frame);
            }
            if self.stream.read_buf(&mut self.buf).await? == 0 {
                return Err(AppError::Closed);
            }
        }
    }

    pub async fn set_nx(&mut self, key: &str, value: &[u8], ttl_ms: u64) -> Result<bool, AppError> {
        let ttl = ttl_ms.to_string();
        let reply = self
            .call(&[b"SET", key.as_bytes(), value, b"NX", b"PX", ttl.as_bytes()])
            .await?;
        Ok(!matches!(reply, Frame::Null))
    }

    pub async fn set(&mut self, key: &str, value: &[u8], ttl_ms: u64) -> Result<(), AppError> {
        let ttl = ttl_ms.to_string();
        self.call(&[b"SET", key.as_bytes(), value, b"PX", ttl.as_bytes()]).await?;
        Ok(())
    }

    pub async fn del(&mut self, key: &str) -> Result<(), AppError> {
        self.call(&[b"DEL", key.as_bytes()]).await?;
        Ok(())
    }
}

pub async fn book(resp: &mut Resp, ctx: &Ctx, req: BookingRequest) -> Result<Reply, AppError> {
    let k = ctx.header("Idempotency-Key").ok_or(AppError::MissingKey)?;
    let key = scoped(&ctx.tenant_id, &ctx.user_id, "bookings.create", k)?;
    if !resp.set_nx(key.storage_key(), b"in_progress", 60_000).await? {
        return Ok(Reply::problem(Problem::in_progress(k)));
    }

    let booking = calendar::book_slot(&ctx.tenant_id, &req).await?;
    let body = serde_json::to_vec(&booking)?;

    resp.set(key.storage_key(), &body, 86_400_000).await?;
    Ok(Reply::created(body))
}

pub async fn cancel(resp: &mut Resp, ctx: &Ctx, booking_id: &str) -> Result<Reply, AppError> {
    let k = ctx.header("Idempotency-Key").ok_or(AppError::MissingKey)?;
    let key = scoped(&ctx.tenant_id, &ctx.user_id, "bookings.cancel", k)?;

    match resp.set_nx(key.storage_key(), b"in_progress", 60_000).await? {
        false => Ok(Reply::problem(Problem::in_progress(k))),
        true => match calendar::cancel(&ctx.tenant_id, booking_id).await {
            Ok(done) => {
                let body = done.to_json();
                resp.set(key.storage_key(), &body, 86_400_000).await?;
                Ok(Reply::ok(body))
            }
            Err(e) => {
                resp.del(key.storage_key()).await?;
                Err(e.into())
            }
        },
    }
}
