use std::sync::Arc;

use cryptoxide::hashing::sha256;
use idem_scope::{scoped, Problem};
use multibase::Base;
use quarry::kv::Vault;
use serde::{Deserialize, Serialize};
use wicket::auth::Caller;
use wicket::extract::RawBody;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
struct WireIn {
    beneficiary: String,
    amount_minor: u64,
    currency: String,
}

#[derive(Serialize, Deserialize)]
struct WireRecord {
    fingerprint: [u8; 32],
    wire_id: String,
}

pub struct Wires {
    idem_vault: Arc<Vault>,
    token_cache: Arc<Vault>,
    rail: swift_rail::Client,
}

impl Wires {
    async fn introspect(&self, api_token: &str) -> Option<Caller> {
        let token_key = multibase::encode(Base::Base32Lower, sha256(api_token.as_bytes()));
        if let Ok(Some(raw)) = self.token_cache.get(&token_key).await {
            return ciborium::from_reader(&raw[..]).ok();
        }
        let caller = self.rail.introspect(api_token).await.ok()?;
        let mut buf = Vec::new();
        ciborium::into_writer(&caller, &mut buf).ok()?;
        let _ = self.token_cache.put(&token_key, buf).await;
        Some(caller)
    }

    pub async fn create(&self, ctx: &Ctx, RawBody(raw): RawBody) -> Reply {
        let Some(token) = ctx.header("authorization").and_then(|v| v.strip_prefix("Bearer ")) else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let Some(caller) = self.introspect(token).await else {
            return Reply::status(Status::UNAUTHORIZED);
        };

        let fingerprint = sha256(&raw);
        let body_id = multibase::encode(Base::Base58Btc, sha256(&raw));
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "wires.create", &body_id) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.idem_vault.get(sk.storage_key()).await {
            let rec: WireRecord = ciborium::from_reader(&prev[..]).expect("stored record");
            return Reply::text(Status::OK, rec.wire_id);
        }

        let input: WireIn = match serde_json::from_slice(&raw) {
            Ok(v) => v,
            Err(e) => return Reply::text(Status::BAD_REQUEST, e.to_string()),
        };
        let wire_id = self.rail.send(&input.beneficiary, input.amount_minor, &input.currency).await;
        let mut buf = Vec::new();
        let _ = ciborium::into_writer(&WireRecord { fingerprint, wire_id: wire_id.clone() }, &mut buf);
        let _ = self.idem_vault.put(sk.storage_key(), buf).await;
        Reply::text(Status::CREATED, wire_id)
    }
}
