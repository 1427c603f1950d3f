use std::sync::Arc;

use idem_scope::scoped;
use quarry::kv::Vault;
use serde::Deserialize;
use volga::headers::HttpHeaders;
use volga::{ok, status, App, Json};

#[derive(Deserialize)]
pub struct Registration {
    domain: String,
    years: u8,
    contact_id: String,
}

pub struct Registrar {
    vault: Arc<Vault>,
    registry: epp::Client,
    auth: auth_gate::Verifier,
}

pub fn map_registrations(app: &mut App, reg: Arc<Registrar>) {
    let r = reg.clone();
    app.map_post("/v1/registrations", move |headers: HttpHeaders, body: Json<Registration>| {
        let reg = r.clone();
        async move {
            let Some(who) = reg.auth.verify(&headers) else {
                return status!(401);
            };
            let Some(raw_key) = headers.get("idempotency-key").and_then(|v| v.to_str().ok()) else {
                return status!(400, "Idempotency-Key is required");
            };
            let client_key = raw_key.trim();
            let client_key = client_key.replace(':', "_");
            let sk = scoped(&who.account_id, &who.user_id, "registrations.create", &client_key)?;
            if let Some(prev) = reg.vault.get(sk.storage_key()).await? {
                return ok!(String::from_utf8_lossy(&prev).into_owned());
            }
            let order = reg.registry.create(&body.domain, body.years, &body.contact_id).await?;
            reg.vault.put(sk.storage_key(), order.to_json().into_bytes()).await?;
            ok!(order.to_json())
        }
    });

    let r = reg.clone();
    app.map_delete("/v1/registrations/{domain}", move |domain: String, headers: HttpHeaders| {
        let reg = r.clone();
        async move {
            let Some(who) = reg.auth.verify(&headers) else {
                return status!(401);
            };
            let Some(client_key) = headers.get("idempotency-key").and_then(|v| v.to_str().ok()) else {
                return status!(400, "Idempotency-Key is required");
            };
            let sk = scoped(&who.account_id, &who.user_id, "registrations.delete", client_key)?;
            if reg.vault.exists(sk.storage_key()).await? {
                return status!(204);
            }
            let fqdn = domain.trim_end_matches('.').to_ascii_lowercase();
            reg.registry.delete(&fqdn).await?;
            reg.vault.put(sk.storage_key(), Vec::new()).await?;
            status!(204)
        }
    });
}
