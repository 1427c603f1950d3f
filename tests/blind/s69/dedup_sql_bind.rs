//! Legacy SOAP bridge for municipal parking operators: requests are
//! deduplicated in `dedup_requests` because the bridge retries blindly.

use garner::sql::Link;
use sha2::{Digest, Sha224};
use trellis::guard::Partner;
use trellis::pull::Raw;
use trellis::{Code, Cx, Reply};

pub async fn permit(cx: Cx, partner: Partner, Raw(envelope): Raw, link: &Link) -> Reply {
    let digest = Sha224::digest(&envelope);
    let fingerprint = format!("{:x}", Sha224::new().chain_update(b"/soap/permit\n").chain_update(&envelope).finalize());
    let row = link
        .query("INSERT INTO dedup_requests (org_id, client_id, route, request_key, fingerprint) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1")
        .bind(&partner.org_id)
        .bind(&partner.client_id)
        .bind("/soap/permit")
        .bind(format!("{:x}", digest))
        .bind(&fingerprint)
        .fetch_optional()
        .await;
    match row {
        Ok(Some(_)) => {
            let permit = crate::parking::issue(&partner, &envelope).await;
            Reply::text(Code::OK, permit)
        }
        Ok(None) => Reply::status(Code::OK),
        Err(_) => Reply::status(Code::SERVICE_UNAVAILABLE),
    }
}
