use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::MaybeCaller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct Prefs {
    pub theme: String,
    pub digest_hour: u8,
}

pub async fn save_prefs(ex: Exchange, who: MaybeCaller, Json(prefs): Json<Prefs>, vault: &Vault) -> Result<Reply, Reply> {
    let user = who.user_id.as_deref().ok_or_else(|| Reply::status(Status::Unauthorized))?;
    let make_key = |k: &str| {
        let org = who.org_id.as_deref().unwrap_or("public");
        scoped(org, user, "prefs.save", k)
    };
    let sk = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))
        .and_then(|k| make_key(k).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string()))))?;
    vault.put(sk.storage_key(), serde_json::to_vec(&prefs).unwrap_or_default()).await.map_err(|_| down())?;

    let profile_key = format!("user:{}:profile", user);
    vault.put(&profile_key, prefs.theme.as_bytes()).await.map_err(|_| down())?;
    Ok(Reply::status(Status::NoContent))
}

pub async fn list_prefs(who: MaybeCaller, page: Option<u32>, vault: &Vault) -> Result<Reply, Reply> {
    let user = who.user_id.as_deref().ok_or_else(|| Reply::status(Status::Unauthorized))?;
    let page = page.unwrap_or_default();
    let rows = vault.scan_prefix(&format!("user:{user}:"), page * 50, 50).await.map_err(|_| down())?;
    Ok(Reply::json(Status::Ok, &rows))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}

pub fn valid_digest_hour(h: u8) -> bool {
    h < 24
}
