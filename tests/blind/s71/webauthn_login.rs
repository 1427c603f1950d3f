//! Passkey sign-in for the rider app (webauthn-rs). Finishing a registration
//! is idempotent per client key; the ceremony state sits under a fresh id
//! for five minutes.

use std::time::Duration;

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use uuid::Uuid;
use webauthn_rs::prelude::{PasskeyRegistration, RegisterPublicKeyCredential, Webauthn};
use wharf::badge::Rider;
use wharf::{Answer, Code, Fault, Hail};

use crate::creds::CredentialBook;

#[derive(Deserialize)]
pub struct FinishRegistration {
    pub ceremony_id: Uuid,
    pub credential: RegisterPublicKeyCredential,
}

pub struct Passkeys {
    webauthn: Webauthn,
    ceremonies: Bay,
    replays: Bay,
    creds: CredentialBook,
}

impl Passkeys {
    pub async fn start_registration(&self, rider: Rider) -> Result<Answer, Fault> {
        let (challenge, state) = self
            .webauthn
            .start_passkey_registration(rider.uuid, &rider.user_id, &rider.display_name, None)?;
        let ceremony_id = Uuid::new_v4();
        self.ceremonies
            .put_ttl(&ceremony_id.to_string(), serde_json::to_vec(&state)?, Duration::from_secs(300))
            .await?;
        Ok(Answer::json(Code::Ok, &serde_json::json!({ "ceremony": ceremony_id, "challenge": challenge })))
    }

    pub async fn finish_registration(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: FinishRegistration = serde_json::from_slice(hail.body())?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "passkeys.register", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }

        let Some(raw_state) = self.ceremonies.take(&req.ceremony_id.to_string()).await? else {
            return Ok(Answer::status(Code::Gone));
        };
        let state: PasskeyRegistration = serde_json::from_slice(&raw_state)?;
        let passkey = self.webauthn.finish_passkey_registration(&req.credential, &state)?;

        let cred_tag = iroh_blake3::hash(passkey.cred_id().as_ref()).to_hex().to_string();
        self.creds.insert(&rider.tenant_id, &rider.user_id, &cred_tag, &passkey).await?;

        let body = serde_json::to_vec(&serde_json::json!({ "credential": cred_tag }))?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
