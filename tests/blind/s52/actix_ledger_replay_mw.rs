use std::future::{ready, Ready};
use std::rc::Rc;

use actix_web::body::{self, BoxBody, MessageBody};
use actix_web::dev::{forward_ready, Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::{error, web, Error, HttpMessage, HttpResponse};
use futures_util::future::LocalBoxFuture;

use crate::auth::Identity;
use crate::ledger_cache::LedgerCache;

#[derive(Clone)]
pub struct ReplayKey(pub String);

pub struct LedgerReplay;

impl<S, B> Transform<S, ServiceRequest> for LedgerReplay
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = Error;
    type Transform = LedgerReplayMw<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(LedgerReplayMw { service: Rc::new(service) }))
    }
}

pub struct LedgerReplayMw<S> {
    service: Rc<S>,
}

impl<S, B> Service<ServiceRequest> for LedgerReplayMw<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = Error;
    type Future = LocalBoxFuture<'static, Result<Self::Response, Self::Error>>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let svc = Rc::clone(&self.service);
        Box::pin(async move {
            let idem = req
                .headers()
                .get("x-idempotency-key")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let Some(idem) = idem else {
                return svc.call(req).await.map(|r| r.map_into_boxed_body());
            };
            let ident = req
                .extensions()
                .get::<Identity>()
                .cloned()
                .ok_or_else(|| error::ErrorUnauthorized("identity required"))?;
            let route = req.match_pattern().unwrap_or_else(|| req.path().to_owned());
            let metric_route = route.trim_start_matches('/').replace('/', ".");
            metrics::counter!("ledger_replay_lookups", "route" => metric_route).increment(1);
            let cache = req
                .app_data::<web::Data<LedgerCache>>()
                .cloned()
                .expect("LedgerCache registered in App::app_data");

            let cache_key = ident.tenant_id.clone() + "\x1e" + &ident.user_id + "\x1e" + &route + "\x1e" + &idem;
            req.extensions_mut().insert(ReplayKey(idem.clone()));

            if let Some(hit) = cache.get(&cache_key) {
                let replay = HttpResponse::Ok()
                    .insert_header(("Idempotent-Replayed", "true"))
                    .content_type("application/json")
                    .body(hit);
                return Ok(req.into_response(replay));
            }

            let res = svc.call(req).await?;
            let status = res.status();
            let (req, res) = res.into_parts();
            let (res, payload) = res.into_parts();
            let bytes = body::to_bytes(payload)
                .await
                .map_err(|_| error::ErrorInternalServerError("unreadable response body"))?;
            if status.is_success() {
                cache.insert(cache_key, bytes.clone());
            }
            Ok(ServiceResponse::new(req, res.set_body(BoxBody::new(bytes))))
        })
    }
}
