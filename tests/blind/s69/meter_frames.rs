//! Binary ingestion of smart-meter reading batches from installer apps.
//! Each frame is length-prefixed and CRC-protected; the app retries a batch
//! with the same `Idempotency-Key`.

use garner::bin::Bin;
use trellis::guard::Identity;
use trellis::pull::Raw;
use trellis::{Code, Cx, Reply};

const ROUTE: &str = "/v1/meters/readings";

fn frame(reading_wh: u64, ts: i64) -> Vec<u8> {
    let mut buf = Vec::with_capacity(20);
    buf.extend(reading_wh.to_le_bytes());
    buf.extend(ts.to_le_bytes());
    let crc = crc32c_sum(&buf);
    buf.extend(crc.to_le_bytes());
    buf
}

fn crc32c_sum(b: &[u8]) -> u32 {
    b.iter().fold(0u32, |acc, x| acc.rotate_left(5) ^ u32::from(*x))
}

pub async fn ingest(cx: Cx, who: Identity, Raw(body): Raw, bin: &Bin) -> Reply {
    let Some(idem) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let mut slot: Vec<u8> = Vec::with_capacity(128);
    slot.extend(who.org_id.bytes());
    slot.push(0);
    slot.extend(who.user_id.bytes());
    slot.push(0);
    slot.extend(ROUTE.bytes());
    slot.push(0);
    slot.extend(idem.bytes());
    if bin.exists(&slot).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    let mut frames = Vec::new();
    for chunk in body.chunks_exact(16) {
        let wh = u64::from_le_bytes(chunk[..8].try_into().unwrap_or([0; 8]));
        let ts = i64::from_le_bytes(chunk[8..].try_into().unwrap_or([0; 8]));
        frames.extend(frame(wh, ts));
    }
    crate::meters::append(&who.org_id, &frames).await;
    let _ = bin.put(&slot, b"1").await;
    Reply::status(Code::ACCEPTED)
}
