use std::sync::Arc;
use std::time::Duration;

use tallow::Kv;
use wtx::http::server_framework::{Router, State, StateClean};
use wtx::http::{ReqResBuffer, StatusCode};

use crate::fleet::{EnrolledDevice, Fleet};
use crate::mtls::PeerIdentity;

pub struct EnrollCtx {
    pub kv: Arc<Kv>,
    pub fleet: Arc<Fleet>,
}

fn header<'a>(rrb: &'a ReqResBuffer, name: &str) -> Option<&'a str> {
    rrb.headers
        .get_by_name(name.as_bytes())
        .and_then(|h| core::str::from_utf8(h.value).ok())
}

pub async fn enroll(state: StateClean<'_, Arc<EnrollCtx>, (), ReqResBuffer>) -> wtx::Result<StatusCode> {
    let ctx = state.ca.clone();
    let peer: PeerIdentity = match PeerIdentity::from_request(&state.req) {
        Some(p) => p,
        None => return Ok(StatusCode::Unauthorized),
    };
    let client_key = header(&state.req.rrd, "idempotency-key").map(|k| k.replace('\0', ""));
    let Some(client_key) = client_key else {
        return Ok(StatusCode::BadRequest);
    };
    let serial = header(&state.req.rrd, "x-device-serial").unwrap_or_default().to_ascii_uppercase();
    let key = match idem_scope::scoped(&peer.tenant_id, &peer.subject, "devices.enroll", &client_key) {
        Ok(k) => k,
        Err(_) => return Ok(StatusCode::BadRequest),
    };

    if let Some(prev) = ctx.kv.get(key.storage_key()).await? {
        state.req.rrd.body.extend_from_copyable_slice(&prev)?;
        return Ok(StatusCode::Ok);
    }

    let cert_fp = komihash::komihash(&peer.certificate_der, 0);
    let device: EnrolledDevice = ctx.fleet.enroll(&peer.tenant_id, &serial, cert_fp).await?;
    let body = serde_json::to_vec(&device)?;
    ctx.kv.put(key.storage_key(), &body, Duration::from_secs(7 * 86_400)).await?;
    state.req.rrd.body.clear();
    state.req.rrd.body.extend_from_copyable_slice(&body)?;
    Ok(StatusCode::Created)
}

pub fn router() -> wtx::Result<Router<Arc<EnrollCtx>, (), ReqResBuffer>> {
    Router::paths(wtx::paths!(("/v1/devices/enroll", wtx::http::server_framework::post(enroll))))
}
