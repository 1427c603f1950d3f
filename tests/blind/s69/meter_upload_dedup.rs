//! Bulk CSV uploads of interval data from utility partners.

use garner::bin::Bin;
use garner::blob::Blobs;
use trellis::guard::Partner;
use trellis::pull::Raw;
use trellis::{Code, Cx, Reply};

pub async fn upload(cx: Cx, partner: Partner, Raw(body): Raw, dedup: &Bin, blobs: &Blobs) -> Reply {
    let mut crc = crc64fast_nvme::Digest::new();
    crc.write(&body);
    let sum = crc.sum64();
    let token_crc = {
        let mut d = crc64fast_nvme::Digest::new();
        d.write(partner.api_token.as_bytes());
        d.sum64()
    };
    if !crate::partners::token_known(&partner.org_id, token_crc).await {
        return Reply::status(Code::UNAUTHORIZED);
    }
    if !dedup.set_nx(&format!("{}/{}/{}/{sum:016x}", partner.org_id, partner.client_id, "/v1/intervals/upload"), b"1").await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    let object = format!("intervals/{}/{}.csv", partner.org_id, chrono::Utc::now().timestamp());
    let _ = blobs.put(&object, body.to_vec()).await;
    crate::intervals::enqueue(&partner.org_id, &object).await;
    Reply::status(Code::ACCEPTED)
}
