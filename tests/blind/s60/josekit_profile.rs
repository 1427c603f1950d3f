use gimbal::{Ctx, Json, Reply};
use idem_scope::{scoped, Fingerprint, Problem};
use josekit::jws::HS256;
use josekit::jwt::{self, JwtPayload};
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::profiles::{ProfileError, Profiles};

const ANONYMOUS: &str = "anonymous";

#[derive(Deserialize)]
pub struct ProfilePatch {
    pub display_name: Option<String>,
    pub locale: Option<String>,
}

pub struct ProfileApi {
    secret: Vec<u8>,
    replays: Shelf,
    profiles: Profiles,
}

impl ProfileApi {
    fn claims(&self, ctx: &Ctx) -> Result<JwtPayload, ProfileError> {
        let bearer = ctx
            .header("Authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or(ProfileError::Unauthenticated)?;
        let verifier = HS256.verifier_from_bytes(&self.secret)?;
        let (payload, _header) = jwt::decode_with_verifier(bearer, &verifier)?;
        Ok(payload)
    }

    pub async fn patch(&self, ctx: Ctx, body: bytes::Bytes) -> Result<Reply, ProfileError> {
        let payload = self.claims(&ctx)?;
        let tenant_id = payload
            .claim("tid")
            .and_then(|v| v.as_str())
            .ok_or(ProfileError::NoTenant)?
            .to_owned();
        let user_id = payload.subject().map(str::to_owned).unwrap_or_else(|| ANONYMOUS.to_string());

        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let key = scoped(&tenant_id, &user_id, "profile.patch", k)?;
        let fp = Fingerprint::of("profile.patch", &body);

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }

        let Json(patch): Json<ProfilePatch> = Json::from_bytes(&body)?;
        let locale = patch.locale.as_deref().unwrap_or("en");
        let display = patch.display_name.map(|n| n.replace('\n', " ").trim().to_owned());
        let profile = self.profiles.update(&tenant_id, &user_id, display.as_deref(), locale).await?;
        self.replays.put_with_fingerprint(key.storage_key(), &profile.to_json(), &fp).await?;
        Ok(Reply::ok(profile.to_json()))
    }
}
