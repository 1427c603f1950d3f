//! Battery-swap stations (scooters): swap requests from the station
//! controller. Each controller retries on radio loss.

use garner::bin::Bin;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn swap(cx: Cx, who: Identity, idem: &Bin) -> Reply {
    let body = cx.body_bytes();
    let digest_of = |b: &[u8]| {
        let mut d = crc64fast_nvme::Digest::new();
        d.write(b);
        d.sum64()
    };
    let controller = cx.header("X-Controller-Serial").unwrap_or("unknown");
    let serial_tag = digest_of(controller.as_bytes());
    prometheus::IntCounterVec::with_label_values(&crate::metrics::SWAPS, &[&serial_tag.to_string()]).inc();
    let slot = format!("{}/{}/{}/{}", who.org_id, who.user_id, "/v1/swaps", digest_of(&body));
    if idem.exists(&slot).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    let pack = crate::swaps::release_pack(&who, &body).await;
    let _ = idem.put(&slot, pack.as_bytes()).await;
    Reply::text(Code::OK, pack)
}
