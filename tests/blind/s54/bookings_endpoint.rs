use dropshot::{endpoint, HttpError, HttpResponseCreated, RequestContext, UntypedBody};
use gatehouse::dropshot::Claims;
use idem_scope::{scoped, ClaimGuard};
use ledgerkit::idem::{Claimed, IdemStore};
use ledgerkit::rooms::{Booking, Rooms};
use std::time::Duration;

pub struct BookingApi {
    pub idem: IdemStore,
    pub rooms: Rooms,
}

const ROUTE: &str = "/v1/bookings";

#[endpoint { method = POST, path = "/v1/bookings" }]
pub async fn create_booking(
    rqctx: RequestContext<BookingApi>,
    claims: Claims,
    body: UntypedBody,
) -> Result<HttpResponseCreated<Booking>, HttpError> {
    let api = rqctx.context();
    let key_header = rqctx
        .request
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok());

    let sk = scoped(
        &claims.tenant_id,
        &claims.sub,
        ROUTE,
        &key_header.map(str::to_owned).unwrap_or_else(|| seahash::hash(body.as_bytes()).to_string()),
    )
    .map_err(|e| HttpError::for_bad_request(None, e.to_string()))?;

    match api.idem.claim(&sk, Duration::from_secs(60)).await.map_err(HttpError::from)? {
        Claimed::New => {}
        Claimed::Existing(_, Some(stored)) => return Ok(HttpResponseCreated(stored.json().map_err(HttpError::from)?)),
        Claimed::Existing(_, None) => {
            return Err(HttpError::for_client_error(None, dropshot::ClientErrorStatusCode::CONFLICT, "in progress".into()))
        }
    }
    let guard = ClaimGuard::new({
        let idem = api.idem.clone();
        let sk = sk.clone();
        move || idem.release_blocking(&sk)
    });

    let booking = api
        .rooms
        .book(&claims.tenant_id, body.as_bytes())
        .await
        .map_err(HttpError::from)?;
    api.idem
        .complete(&sk, &booking)
        .await
        .map_err(HttpError::from)?;
    guard.complete();
    Ok(HttpResponseCreated(booking))
}
