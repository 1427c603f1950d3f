use bytes::{Buf, BytesMut};
use std::collections::BTreeMap;
use std::sync::RwLock;
use tokio_util::codec::Decoder;

pub struct Frame {
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

pub struct FrameCodec;

impl Decoder for FrameCodec {
    type Item = Frame;
    type Error = std::io::Error;
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, Self::Error> {
        if src.len() < 4 {
            return Ok(None);
        }
        let len = src.get_u32() as usize;
        let raw = src.split_to(len);
        Ok(Some(parse_frame(&raw)))
    }
}

fn parse_frame(_raw: &[u8]) -> Frame {
    Frame { headers: BTreeMap::new(), body: Vec::new() }
}

pub struct Session {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct Ingest {
    replay_cache: RwLock<BTreeMap<String, Vec<u8>>>,
}

impl Ingest {
    pub fn handle(&self, sess: &Session, frame: Frame) -> Option<Vec<u8>> {
        let retry_token = frame.headers.get("idempotency-key")?.clone();
        let slot = format!("{}:{}", sess.tenant_id, retry_token);
        if let Some(hit) = self.replay_cache.read().unwrap().get(&slot) {
            return Some(hit.clone());
        }
        tracing::info!(retry_token = %retry_token, user = %sess.user_id, "fresh ingest");
        let out = frame.body.clone();
        self.replay_cache.write().unwrap().insert(slot, out.clone());
        Some(out)
    }
}
