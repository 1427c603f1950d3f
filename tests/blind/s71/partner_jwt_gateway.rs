//! Gateway for partner integrators (travel-planning apps) that book tickets
//! on behalf of their users. Partners authenticate with a JWT signed by
//! their own key; claims are checked with `picky`.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use picky::jose::jws::JwsAlg;
use picky::jose::jwt::{CheckedJwtSig, JwtSig, JwtValidator};
use picky::key::PublicKey;
use serde_json::Value;
use wharf::{Answer, Code, Fault, Hail};

pub struct PartnerGateway {
    replays: Bay,
    keys: crate::partners::KeyRing,
    booking: crate::booking::Booking,
}

impl PartnerGateway {
    fn verify(&self, hail: &Hail) -> Result<CheckedJwtSig<Value>, Fault> {
        let token = hail
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(Fault::unauthorized)?;
        let key: PublicKey = self.keys.for_token(token)?;
        let validator = JwtValidator::strict(time::OffsetDateTime::now_utc().unix_timestamp());
        JwtSig::decode(token, &key, &validator).map_err(|_| Fault::unauthorized())
    }

    pub async fn book(&self, hail: Hail) -> Result<Answer, Fault> {
        let jwt = self.verify(&hail)?;
        let claims = &jwt.state.claims;
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;

        let org = match claims.get("org_id") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => "unknown".to_owned(),
        };
        let sub = claims
            .get("sub")
            .and_then(Value::as_str)
            .ok_or_else(Fault::unauthorized)?;
        let audience = claims.get("aud").and_then(Value::as_str).unwrap_or("fares-api");
        if jwt.header.alg != JwsAlg::ES256 || audience != "fares-api" {
            return Err(Fault::unauthorized());
        }

        let key = scoped(&org, sub, "partner.book", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let booking = self.booking.create(&org, sub, hail.body()).await?;
        let body = serde_json::to_vec(&booking)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
