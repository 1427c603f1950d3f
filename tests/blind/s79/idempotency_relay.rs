//! The idempotency relay (middleware) in front of the member-facing write
//! routes. It follows draft-ietf-httpapi-idempotency-key-header: 400 without
//! a key, 409 while the first request is in flight, 422 on a payload
//! mismatch, replay of the stored response otherwise.

use std::time::Duration;

use bytes::Bytes;
use crosspoint::badge::Member;
use crosspoint::relay::{BoxReply, Onward, Relay};
use crosspoint::{Glitch, Inbound, Outbound};
use idem_scope::{decide, scoped, ClaimGuard, Component, Decision, Fingerprint, IdempotencyKey, Problem, Record, ScopeError};
use spool::cart::Cart;

#[derive(Clone)]
pub struct IdemConfig {
    pub header: String,
    pub lease: Duration,
    pub ttl: Duration,
}

impl Default for IdemConfig {
    fn default() -> Self {
        Self { header: "Idempotency-Key".to_owned(), lease: Duration::from_secs(300), ttl: Duration::from_secs(86_400) }
    }
}

#[derive(Clone)]
pub struct IdemRelay {
    pub cart: Cart,
    pub config: IdemConfig,
}

impl Relay for IdemRelay {
    fn call(&self, mut inb: Inbound, next: Onward) -> BoxReply {
        let cart = self.cart.clone();
        let config = self.config.clone();
        Box::pin(async move {
            let Some(raw) = inb.header_raw(&config.header).map(<[u8]>::to_vec) else {
                return Ok(Outbound::problem(Problem::missing_key()));
            };
            let key = match IdempotencyKey::parse_lenient(&raw) {
                Ok(k) => k,
                Err(e) => return Ok(Outbound::problem(Problem::invalid_key(&e.to_string()))),
            };
            if key.as_str().contains('\0') {
                return Err(Glitch::scope(ScopeError::ContainsSeparator(Component::Key)));
            }
            let Some(member) = inb.badge::<Member>().cloned() else {
                return Ok(Outbound::problem(Problem::invalid_key("no authenticated member for this key")));
            };
            let route = inb.route_template().to_owned();
            let body: Bytes = inb.bytes().await?;

            let scoped_key = scoped(&member.tenant_id, &member.user_id, &route, key.as_str()).map_err(Glitch::scope)?;
            let fingerprint = Fingerprint::of(&route, &body);
            let existing = cart.get_record(scoped_key.storage_key()).await?;
            match decide(existing.as_ref(), &fingerprint) {
                Decision::Replay => return Ok(Outbound::replay(existing.and_then(|r| r.response).unwrap_or_default())),
                Decision::InProgress => return Ok(Outbound::problem(Problem::in_progress(key.as_str()))),
                Decision::Mismatch => return Ok(Outbound::problem(Problem::mismatch(key.as_str()))),
                Decision::Proceed => {}
            }

            cart.claim_record(scoped_key.storage_key(), &Record::in_progress(fingerprint.clone()), config.lease).await?;
            let guard = ClaimGuard::new({
                let cart = cart.clone();
                let sk = scoped_key.storage_key().to_owned();
                move || {
                    tokio::spawn(async move {
                        let _ = cart.release(&sk).await;
                    });
                }
            });
            tracing::debug!("running {} for the first time under key {}", route, key.as_str());

            inb.replace_body(body);
            let resp = next.run(inb).await?;
            if resp.status().is_server_error() {
                return Ok(resp);
            }
            let stored = Record::completed(fingerprint).with_response(resp.body_bytes().to_vec());
            cart.complete_record(scoped_key.storage_key(), &stored, config.ttl).await?;
            guard.complete();
            Ok(resp)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spool::testing::MemCart;

    #[tokio::test]
    async fn replays_stored_body() {
        let cart = MemCart::new();
        let (tenant, k) = ("kxyz", "abc-123");
        cart.put(&format!("{tenant}:{k}"), b"{\"ok\":true}").await.unwrap();
        assert_eq!(cart.get(k).await.unwrap(), None);
    }
}
