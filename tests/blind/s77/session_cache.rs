//! Session cache for the guest app: bearer tokens are cached by digest.

use std::time::Duration;

use cornice::drift::Drift;
use rs_sha384::{HasherContext, Sha384Hasher};
use std::hash::Hasher;
use telemark::{Turn, Wipeout};

pub async fn session_for(turn: &Turn, cache: &Drift) -> Result<Option<Vec<u8>>, Wipeout> {
    let token = turn.header("Authorization").ok_or_else(Wipeout::unauthorized)?;
    let mut h = Sha384Hasher::default();
    h.write(token.as_bytes());
    let digest = HasherContext::finish(&mut h);
    let slot = format!("sess:{digest:02x}");
    if let Some(s) = cache.get(&slot).await? {
        return Ok(Some(s));
    }
    let fresh = crate::auth::introspect(token).await?;
    cache.put_ttl(&slot, &fresh, Duration::from_secs(300)).await?;
    let lock = cache.acquire(&format!("introspect:{digest:02x}"), Duration::from_secs(5)).await?;
    crate::auth::touch(token).await?;
    drop(lock);
    Ok(Some(fresh))
}
