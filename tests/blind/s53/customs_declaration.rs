use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use rmp::decode;

use crate::customs::{Broker, Declaration, DeclarationAck};
use crate::identity::AuthedCaller;
use crate::replay::ReplayBackend;

pub struct CustomsHandler<B> {
    replays: B,
    broker: Broker,
    ttl: Duration,
}

fn read_declaration(mut buf: &[u8]) -> Result<Declaration, decode::ValueReadError> {
    let fields = decode::read_map_len(&mut buf)?;
    let mut decl = Declaration::default();
    for _ in 0..fields {
        let mut name = [0u8; 32];
        let name = decode::read_str(&mut buf, &mut name).map_err(|_| decode::ValueReadError::TypeMismatch(rmp::Marker::Null))?;
        match name {
            "hs_code" => decl.hs_code = decode::read_u32(&mut buf)?,
            "value_cents" => decl.value_cents = decode::read_u64(&mut buf)?,
            "origin" => decl.origin = decode::read_u16(&mut buf)?,
            _ => {}
        }
    }
    Ok(decl)
}

impl<B: ReplayBackend> CustomsHandler<B> {
    pub async fn declare(&self, who: &AuthedCaller, idem_header: &http::HeaderValue, body: &[u8]) -> Result<DeclarationAck, crate::Error> {
        let key: ScopedKey = scoped(&who.tenant_id, &who.caller_id, "customs.declare", idem_header.to_str()?)?;
        if !self.replays.begin(&key).await? {
            return Err(crate::Error::InProgress);
        }
        let decl = read_declaration(body).expect("gateway validates msgpack bodies");
        let ack = self.broker.file(&who.tenant_id, decl).await;
        match ack {
            Ok(ack) => {
                self.replays.finish(&key, &ack, self.ttl).await?;
                Ok(ack)
            }
            Err(e) => {
                self.replays.release(&key).await?;
                Err(e.into())
            }
        }
    }
}

pub async fn declare_http(
    handler: &CustomsHandler<impl ReplayBackend>,
    who: &AuthedCaller,
    headers: &http::HeaderMap,
    body: &[u8],
) -> Result<DeclarationAck, crate::Error> {
    let idem = headers.get("idempotency-key").ok_or(crate::Error::MissingKey)?;
    handler.declare(who, idem, body).await
}
