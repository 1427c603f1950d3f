//! Partner API behind mutual TLS. The client certificate identifies the
//! calling system; the partner id comes from the gateway.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::tls::PeerCert;
use portcullis::who::Partner;
use portcullis::{Call, Reply, Status};
use x509_parser::prelude::*;

pub async fn settle(silo: &Silo, partner: &Partner, peer: &PeerCert, call: Call) -> Reply {
    let Ok((_, cert)) = X509Certificate::from_der(peer.der()) else { return Reply::status(Status::Forbidden) };
    let system = cert.subject().iter_common_name().next().and_then(|cn| cn.as_str().ok()).unwrap_or("anonymous");
    let issuer = cert.issuer().iter_organization().next().and_then(|o| o.as_str().ok()).unwrap_or("unknown");
    tracing::info!(issuer, "settlement call");
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(&partner.merchant_id, system, "settlement.create", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::settlements::create(&partner.merchant_id, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
