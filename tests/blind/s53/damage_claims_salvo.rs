use salvo::prelude::*;
use sha2::{Digest, Sha256};

use crate::auth::Principal;
use crate::claims::{DamageClaim, DamageClaims};
use crate::errors::AppError;

pub struct ClaimReplayTree(pub sled::Tree);

fn digest_hex(bytes: &[u8]) -> Option<String> {
    (!bytes.is_empty()).then(|| Sha256::new().chain_update(bytes).finalize()).map(|d| hex::encode(d))
}

#[handler]
pub async fn submit_damage_claim(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), AppError> {
    let principal = depot.obtain::<Principal>().map_err(|_| AppError::Unauthenticated)?.clone();
    let tree = &depot.obtain::<ClaimReplayTree>().map_err(|_| AppError::Misconfigured("replay tree"))?.0;

    let raw = req.payload().await.map_err(|_| AppError::BadRequest("unreadable body"))?.to_vec();
    let claim: DamageClaim = serde_json::from_slice(&raw).map_err(|_| AppError::BadRequest("invalid claim"))?;
    let body_digest = digest_hex(&raw).ok_or(AppError::BadRequest("empty body"))?;

    let dedup = (principal.workspace_id.clone(), principal.user_id.clone(), "claims.submit", body_digest);
    let slot = bincode::serialize(&dedup).map_err(|_| AppError::Internal)?;
    if let Some(prev) = tree.get(&slot).map_err(|_| AppError::Unavailable)? {
        res.render(Text::Json(String::from_utf8_lossy(&prev).into_owned()));
        return Ok(());
    }

    let claims = depot.obtain::<DamageClaims>().map_err(|_| AppError::Misconfigured("claims"))?;
    let filed = claims.file(&principal.workspace_id, claim).await?;
    let json = serde_json::to_string(&filed).map_err(|_| AppError::Internal)?;
    tree.insert(&slot, json.as_bytes()).map_err(|_| AppError::Unavailable)?;
    res.status_code(StatusCode::CREATED);
    res.render(Text::Json(json));
    Ok(())
}
