//! Line protocol over TCP framed with a hand-rolled tokio-util codec.
//! Frame: u16 tenant len | tenant | u16 user len | user | u8 op | u16 key len | key | body
use bytes::{Buf, BufMut, Bytes, BytesMut};
use std::collections::HashMap;
use tokio_util::codec::Decoder;

pub struct Request {
    pub tenant: Bytes,
    pub user_id: Bytes,
    pub op: u8,
    /// Client idempotency key (the `Idempotency-Key` of the HTTP facade).
    pub idempotency_key: Bytes,
    pub body: Bytes,
}

pub struct ReqCodec;

impl Decoder for ReqCodec {
    type Item = Request;
    type Error = std::io::Error;
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Request>, Self::Error> {
        if src.len() < 4 {
            return Ok(None);
        }
        let tl = src.get_u16() as usize;
        let tenant = src.split_to(tl).freeze();
        let ul = src.get_u16() as usize;
        let user_id = src.split_to(ul).freeze();
        let op = src.get_u8();
        let kl = src.get_u16() as usize;
        let idempotency_key = src.split_to(kl).freeze();
        let body = src.split().freeze();
        Ok(Some(Request { tenant, user_id, op, idempotency_key, body }))
    }
}

pub struct Dedup {
    seen: HashMap<Vec<u8>, Bytes>,
}

impl Dedup {
    pub fn check(&mut self, req: &Request) -> Option<Bytes> {
        let mut k = Vec::with_capacity(64);
        k.extend_from_slice(&req.tenant);
        k.push(0);
        k.extend_from_slice(&req.user_id);
        k.push(0);
        k.push(req.op);
        k.push(0);
        k.extend_from_slice(&req.idempotency_key);
        self.seen.get(&k).cloned()
    }

    pub fn remember(&mut self, key: Vec<u8>, reply: Bytes) {
        self.seen.insert(key, reply);
    }

    pub fn trace_label(req: &Request) -> BytesMut {
        let mut label = BytesMut::with_capacity(64);
        label.put_slice(&req.tenant);
        label.put_u8(b'/');
        label.put_slice(&req.idempotency_key);
        label
    }
}
