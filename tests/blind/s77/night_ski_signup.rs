//! Night-skiing sign-up form posted from the lodge website (urlencoded).

use cornice::ledge::Ledge;
use telemark::pass::Skier;
use telemark::{Carve, Form, Turn, Wipeout};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct NightForm {
    pub session_date: String,
    pub party_size: u8,
    pub headlamp_rental: bool,
}

pub async fn sign_up(turn: Turn, skier: Skier, Form(form): Form<NightForm>, db: &Ledge) -> Result<Carve, Wipeout> {
    let encoded = serde_urlencoded::to_string(&form).map_err(Wipeout::internal)?;
    let d = rs_md5::Md5Hasher::digest(encoded.as_bytes());
    let avatar_seed = rs_md5::Md5Hasher::digest(skier.user_id.as_bytes());

    let seen = db
        .sql("SELECT response FROM replay_log WHERE tenant_id = $1 AND user_id = $2 AND route = $3 AND request_key = $4")
        .bind(&skier.tenant_id)
        .bind(&skier.user_id)
        .bind("night-ski.signup")
        .bind(format!("{d:x}"))
        .maybe::<Vec<u8>>()
        .await?;
    if let Some(prev) = seen {
        return Ok(Carve::replayed(prev));
    }

    db.sql("UPDATE skier_profile SET avatar_seed = $1 WHERE user_id = $2")
        .bind(format!("{avatar_seed:x}"))
        .bind(&skier.user_id)
        .run()
        .await?;

    let ticket = crate::night::book(&form).await?;
    Ok(Carve::created(ticket))
}
